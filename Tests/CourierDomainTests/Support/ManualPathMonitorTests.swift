import CourierDomain
import Testing

@MainActor
@Suite struct ManualPathMonitorTests {
    @Test func observersHearTheCurrentPathThenChangesOnlyUntilTheirTokenGoes() {
        // Given a monitor on Wi-Fi, observed
        let wifi = NetworkPath(status: .satisfied, type: .wifi)
        let cellular = NetworkPath(status: .satisfied, type: .cellular, isExpensive: true)
        let monitor = ManualPathMonitor(path: wifi)
        var heard: [NetworkPath] = []
        var token: ObservationToken? = monitor.observe { heard.append($0) }

        // When the path moves, is set to the same value again, and is lost
        monitor.set(cellular)
        monitor.set(cellular)
        monitor.set(.unavailable)

        // Then the observer heard the current path first, then each change once
        #expect(heard == [wifi, cellular, .unavailable])
        #expect(monitor.path == .unavailable)

        // And once the token goes, nothing more
        token = nil
        monitor.set(wifi)
        #expect(heard == [wifi, cellular, .unavailable])
        _ = token
    }

    @Test func itStartsOnASatisfiedWiredPath() {
        #expect(ManualPathMonitor().path == NetworkPath(status: .satisfied, type: .wired))
    }
}
