import CourierDomain
import Foundation
import Testing

@testable import CourierServer

/// The sign-in throttle's tables stay bounded, and cheap to keep bounded, when more clients than they hold fail at
/// once: a full table is pruned to half in one pass, keeping the lockouts that end last.
@MainActor
struct SignInThrottlePruningTests {
    @Test func aFloodOfNewClientsKeepsTheTablesBoundedAndPrunesThemRarely() {
        // Given a throttle that holds 100 entries of each kind
        let throttle = SignInThrottle(trackedLimit: 100)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        var largest = 0

        // When 1,000 clients never seen before each guess my password 5 times, a millisecond apart (each locked out
        // for 30 s: more lockouts at once than the table holds), the last 50 of them 10 times (locked out again, for
        // 60 s)
        var now = start
        for index in 0..<1_000 {
            let client = Self.client(index)
            for _ in 0..<(index < 950 ? 5 : 10) {
                now = now.addingTimeInterval(0.001)
                throttle.noteFailure(of: "me", from: client, at: now)
            }
            largest = max(largest, throttle.trackedCount)
        }

        // Then neither table ever held more than its 100 entries, and a full one was pruned to half about once per
        // 50 new clients, not on every new client
        #expect(largest <= 200)
        #expect(throttle.prunes <= 40, "\(throttle.prunes) prunes")
        // And a minute later, past the server's ceiling's minute and the first lockouts, the clients locked out last
        // are still locked out, and a client that never failed signs in at once
        let later = start.addingTimeInterval(61)
        for index in 950..<1_000 {
            #expect(throttle.wait(for: "me", from: Self.client(index), at: later) != nil, "\(Self.client(index))")
        }
        #expect(throttle.wait(for: "me", from: "127.9.9.9", at: later) == nil)
    }

    private static func client(_ index: Int) -> String { "127.0.\(index / 256).\(index % 256)" }
}
