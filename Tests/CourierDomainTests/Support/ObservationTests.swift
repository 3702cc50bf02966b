import CourierDomain
import Testing

@MainActor
@Suite struct ObservationTests {
    @Test func observersHearChangesUntilTheirTokenGoes() {
        let connectivity = ManualConnectivity(online: true)
        var heard: [Bool] = []
        var token: ObservationToken? = connectivity.observe { heard.append($0) }
        connectivity.set(online: false)
        connectivity.set(online: false)
        connectivity.set(online: true)
        #expect(heard == [true, false, true], "the current value first, then changes only")
        token = nil
        connectivity.set(online: false)
        #expect(heard == [true, false, true])
        _ = token
    }
}
