import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The shared message backend fake answers as it was set up, records what it was asked, and fails the test that asks
/// it for something it was not set up for.
@MainActor
@Suite("FakeMessageRepository")
struct FakeMessageRepositoryTests {
    let clock = ManualClock()

    @Test("a script plays one step a request, in order; a request past its end throws and is recorded as an issue")
    func scriptThenUnscripted() async throws {
        // Given a backend scripted to fail once, then answer
        let backend = FakeMessageRepository(clock: clock, script: [.fail(.timeout), .answer])

        // When it is sent to three times
        await #expect(throws: DeliveryError.timeout) { try await backend.send(BackendFixtures.message("m1")) }
        let sent = try await backend.send(BackendFixtures.message("m1"))
        await withKnownIssue("the third request is past the script") {
            await #expect(throws: FakeCallError.unscripted(request: 3).deliveryError) {
                try await backend.send(BackendFixtures.message("m2"))
            }
        }

        // Then the second was stored, and all three were recorded
        #expect(sent.status == .sent)
        #expect(backend.stored.map(\.id) == ["m1"])
        #expect(backend.requests == 3)
        #expect(backend.sends == 3)
    }

    @Test("per-id failures are used once each, a refusal refuses every message, and a resend stores nothing new")
    func settingsAnswerPerMessage() async throws {
        // Given m2 set to fail once
        let backend = FakeMessageRepository(clock: clock)
        backend.failures = ["m2": [.server(code: 503)]]
        let batch = (1...3).map { BackendFixtures.message("m\($0)", at: Double($0)) }

        // When the batch goes twice, then once more with every message refused
        let first = try await backend.sendBatch(batch)
        let second = try await backend.sendBatch(batch)
        backend.refusal = .validation(reason: "closed")
        let third = try await backend.sendBatch(batch)

        // Then m2 failed only the first time, each message is stored once, and the refusal refused all three
        #expect(first.map { (try? $0.get())?.id } == ["m1", nil, "m3"])
        #expect(second.allSatisfy { (try? $0.get()) != nil })
        #expect(third.allSatisfy { $0 == .failure(.validation(reason: "closed")) })
        #expect(backend.stored.map(\.id) == ["m1", "m3", "m2"])
        #expect(backend.batches.map { $0.map(\.id) } == Array(repeating: batch.map(\.id), count: 3))
    }

    @Test("latency waits on the clock; pages come from what is stored, oldest first, before the cursor")
    func latencyAndPages() async throws {
        // Given a backend whose requests take 2 s, holding five messages of c1
        let backend = FakeMessageRepository(clock: clock, latency: .seconds(2))
        backend.seed((1...5).map { BackendFixtures.message("m\($0)", at: Double($0)) })

        // When the newest two are loaded, then the two before them
        let (newest, elapsed) = await clock.drive { try await backend.messages(in: "c1", before: nil, limit: 2) }
        let page = try newest.get()
        let cursor = try #require(page.messages.first?.cursor)
        let (olderPage, _) = await clock.drive { try await backend.messages(in: "c1", before: cursor, limit: 2) }
        let older = try olderPage.get()

        // Then each page took the latency and holds what was asked for
        #expect(elapsed == 2)
        #expect(page == MessagePage(messages: Array(backend.stored[3...]), hasMore: true))
        #expect(older.messages.map(\.id) == ["m2", "m3"])
        #expect(backend.pageRequests == 2)
    }

    @Test("a page load a sender-only backend was not set up for, or a negative page size, fails the test loudly")
    func unexpectedPages() async {
        let sender = FakeMessageRepository(clock: clock, servesPages: false)
        await withKnownIssue("pages were not expected") {
            await #expect(throws: FakeCallError.unexpected("messages(in:before:limit:)").deliveryError) {
                try await sender.messages(in: "c1", before: nil, limit: 5)
            }
        }
        await withKnownIssue("a negative page size") {
            await #expect(throws: FakeCallError.invalidArgument("a page of -1 messages").deliveryError) {
                try await FakeMessageRepository(clock: clock).messages(in: "c1", before: nil, limit: -1)
            }
        }
    }
}
