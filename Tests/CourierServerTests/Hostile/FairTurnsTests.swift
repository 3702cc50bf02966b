import Foundation
import Testing

@testable import CourierServer

/// `FairTurns` keeps a token's requests behind each other, so that one token's flood puts one request, not all of
/// them, in the main actor's line in front of everyone else's.
@Suite struct FairTurnsTests {
    /// A stand-in for the main actor's line: bodies wait inside it until it opens, and it counts who is inside (unlike
    /// the main queue it is not first-come first-served once open, so what is checked is who is inside at once).
    private final class Line: @unchecked Sendable {
        private let condition = NSCondition()
        private var inside: [String: Int] = [:]
        private var ran: [String] = []
        private var open = false

        /// Joins the line as `token` and waits until it is opened.
        func enter(_ token: String) {
            condition.withLock {
                inside[token, default: 0] += 1
                condition.broadcast()
                while !open { condition.wait() }
                inside[token, default: 0] -= 1
                ran.append(token)
            }
        }

        func count(_ token: String) -> Int { condition.withLock { inside[token] ?? 0 } }

        var ranInOrder: [String] { condition.withLock { ran } }

        func openUp() {
            condition.withLock {
                open = true
                condition.broadcast()
            }
        }
    }

    /// Waits, bounded, for threads to reach the state `ready` describes (synchronisation, not timing).
    private func waitFor(_ ready: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if ready() { return true }
            usleep(1_000)
        }
        return ready()
    }

    @Test func aTokensFloodPutsOneRequestInTheLineAndAnotherTokenGetsInBesideIt() {
        // Given ten requests of token A and then one of token B, with the line not moving
        let turns = FairTurns()
        let line = Line()
        let group = DispatchGroup()
        for token in Array(repeating: "a", count: 10) + ["b"] {
            group.enter()
            Thread {
                turns.run(as: token) { line.enter(token) }
                group.leave()
            }.start()
        }

        // When every one of them has asked for its turn
        #expect(waitFor { turns.requests(of: "a") == 10 && line.count("a") == 1 && line.count("b") == 1 })

        // Then the line holds one of A's and B's one; the other nine of A's wait off it
        #expect(line.count("a") == 1)
        #expect(line.count("b") == 1)
        line.openUp()
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(line.ranInOrder.filter { $0 == "a" }.count == 10)
        #expect(line.ranInOrder.contains("b"))
        #expect(turns.tokensInFlight == 0)
    }

    @Test func aRequestWithoutATokenIsNotQueuedBehindAnother() {
        // Given a request without a token inside the line
        let turns = FairTurns()
        let line = Line()
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                turns.run(as: nil) { line.enter("anonymous") }
                group.leave()
            }.start()
        }

        // Then all three are in the line at once: admission bounds them, not the turns
        #expect(waitFor { line.count("anonymous") == 3 })
        line.openUp()
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(turns.tokensInFlight == 0)
    }
}
