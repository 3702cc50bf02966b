import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Online is path ∧ reachability; the platform's path (kind, flags) comes through; a path change probes fast again.
@MainActor
@Suite struct CombinedConnectivityTests {
    @Test func onlineNeedsBothAPathAndABackendThatAnswersAndEachChangeIsHeardOnce() async throws {
        // Given a platform path on Wi-Fi and a reachable backend
        let clock = ManualClock()
        let platform = ManualPathMonitor(path: NetworkPath(status: .satisfied, type: .wifi))
        let reachability = BackendReachability(clock: clock)
        let combined = CombinedConnectivity(path: PathConnectivity(platform), reachability: reachability)
        var heard: [Bool] = []
        let token = combined.observe { heard.append($0) }

        // When the backend stops answering, the path goes (cellular, expensive) and comes back, the backend answers
        reachability.connectionFailed()
        let unreachable = (combined.isOnline, combined.isBackendReachable)
        platform.set(.unavailable)
        let noPath = (combined.isOnline, combined.isBackendReachable, combined.networkPath.type)
        platform.set(NetworkPath(status: .satisfied, type: .cellular, isExpensive: true))
        reachability.answered()
        // The answer came within a second of the loss: it takes effect once that second is over.
        let atOnce = combined.isOnline
        await clock.advance(by: .seconds(1))

        // Then: offline while unreachable (and said so), offline without a path (not blamed on the server), online
        // with both, the path's kind and flags passed on, and one event per change
        #expect(unreachable == (false, false))
        #expect(noPath == (false, true, .none))
        #expect(!atOnce)
        #expect(combined.isOnline)
        #expect(combined.networkPath == NetworkPath(status: .satisfied, type: .cellular, isExpensive: true))
        #expect(heard == [true, false, true])
        withExtendedLifetime(token) {}
    }

    @Test func aChangeOfPathRestartsTheProbeFromItsFastestWait() async throws {
        // Given an unreachable backend whose probe has backed off
        let clock = ManualClock()
        let platform = ManualPathMonitor()
        let reachability = BackendReachability(clock: clock, probe: { throw DeliveryError.unreachable })
        let combined = CombinedConnectivity(path: PathConnectivity(platform), reachability: reachability)
        reachability.connectionFailed()
        await clock.advance(by: .seconds(120))
        await clock.idle()
        let backedOff = try #require(reachability.nextProbe).timeIntervalSince(clock.now)

        // When the device moves to another network
        platform.set(NetworkPath(status: .satisfied, type: .wifi))
        await clock.idle()

        // Then the next probe comes within about a second
        let next = try #require(reachability.nextProbe).timeIntervalSince(clock.now)
        #expect(backedOff > 5)
        #expect(next <= 1.2)
        withExtendedLifetime(combined) {}
    }
}
