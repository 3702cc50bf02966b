import CourierBench
import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierServer

/// A bearer token that asks faster than any app does is answered 429, with `Retry-After`, before anything of its
/// request is read: its body is not decoded, its route not parsed, the main actor not asked.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct RequestRatesTests {
    @Test("a token's burst is spent, then each request waits for the rate; other tokens keep theirs")
    func aTokensBurstThenItsRate() {
        // Given 3 requests at once per token, then 2 a second, on a clock the test moves
        let rates = RequestRates(burst: 3, perSecond: 2)
        let start = ContinuousClock.now

        // When one token asks 4 times at once, again half a second later, and another token asks once
        let first = (0..<4).map { _ in rates.take(by: "a", at: start) }
        let later = rates.take(by: "a", at: start + .milliseconds(500))
        let tooSoon = rates.take(by: "a", at: start + .milliseconds(500))
        let other = rates.take(by: "b", at: start)

        // Then the fourth waits a second, half a second refills one, and the other token is not touched
        #expect(first == [nil, nil, nil, 1])
        #expect(later == nil)
        #expect(tooSoon == 1)
        #expect(other == nil)
    }

    @Test("past its capacity the table forgets the token used least recently, which gets a full burst again")
    func aFullTableForgetsTheOldest() {
        // Given a table of two tokens, one of which spent its burst first
        let rates = RequestRates(burst: 1, perSecond: 1, capacity: 2)
        let start = ContinuousClock.now
        #expect(rates.take(by: "old", at: start) == nil)
        #expect(rates.take(by: "old", at: start) == 1)
        #expect(rates.take(by: "recent", at: start + .milliseconds(1)) == nil)

        // When a third token comes
        #expect(rates.take(by: "new", at: start + .milliseconds(2)) == nil)

        // Then the recent one was kept (still spent), the oldest forgotten (a full burst again)
        #expect(rates.take(by: "recent", at: start + .milliseconds(3)) == 1)
        #expect(rates.take(by: "old", at: start + .milliseconds(4)) == nil)
    }

    @Test("on a real server, a token past its rate is 429 with Retry-After before its body is read")
    func aTokenPastItsRateIsRefusedUnread() async throws {
        // Given a server allowing 3 requests at once per token, then 1 a second
        let fixture = try ServerFixture(contentLimits: ContentLimits(requestBurst: 3, requestsPerSecond: 1))
        let ana = try fixture.token(for: "ana")
        let port = fixture.server.port
        // A batch whose body is not JSON: read, it is 422
        let garbage =
            "POST /conversations/c1/messages:batch HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(ana)\r\n"
            + "Content-Length: 1\r\n\r\n{"

        // When Ana sends it 4 times at once, each on a connection of its own
        let answers = await OwnThread {
            (0..<4).map { _ -> (status: Int?, text: String) in
                guard let socket = LoopbackSocket(port: port) else { return (nil, "") }
                socket.send(garbage)
                return socket.readAnswer(timeout: .seconds(60))
            }
        }.value

        // Then the first three were read and refused 422, the fourth refused 429 unread, saying when to come back
        #expect(answers.map(\.status) == [422, 422, 422, 429])
        #expect(answers.last?.text.contains("Retry-After: 1") == true)
        #expect(answers.last?.text.contains("rateLimited") == true)
        // and `me`, with a token of their own, is not touched
        #expect(await HonestUser(client: fixture.client).send(3).succeeded == 3)
    }
}
