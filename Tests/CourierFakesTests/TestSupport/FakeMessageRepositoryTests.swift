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
        #expect(backend.pageRequests == [nil, cursor])
    }

    @Test("a request of a kind the backend was not set up for, or a page of no messages, fails the test loudly")
    func unexpectedRequests() async {
        // Given a sender that serves no pages, and a reader that expects no sends
        let sender = FakeMessageRepository(clock: clock, serves: .sends)
        let reader = FakeMessageRepository(clock: clock, serves: .pages)

        // When each is asked what it was not set up for, and the reader for pages of no messages
        await withKnownIssue("pages were not expected") {
            await #expect(throws: FakeCallError.unexpected("messages(in:before:limit:)").deliveryError) {
                try await sender.messages(in: "c1", before: nil, limit: 5)
            }
        }
        await withKnownIssue("sends were not expected") {
            await #expect(throws: FakeCallError.unexpected("send(_:)").deliveryError) {
                try await reader.send(BackendFixtures.message("m1"))
            }
            await #expect(throws: FakeCallError.unexpected("sendBatch(_:)").deliveryError) {
                try await reader.sendBatch([BackendFixtures.message("m1")])
            }
        }
        for limit in [0, -1, Int.min] {
            await withKnownIssue("a page of \(limit) messages") {
                await #expect(throws: FakeCallError.invalidArgument("a page of \(limit) messages").deliveryError) {
                    try await reader.messages(in: "c1", before: nil, limit: limit)
                }
            }
        }

        // Then none of them was served
        #expect(sender.requests == 0)
        #expect(reader.requests == 0)
        #expect(reader.stored.isEmpty)
    }

    @Test("a backend reached through a connectivity fails offline at once while it is offline, and is not asked")
    func unreachableWhileOffline() async throws {
        // Given a reader holding one message, reached while a connectivity is online, which is offline
        let network = ManualConnectivity(online: false)
        let reader = FakeMessageRepository(
            clock: clock, history: [BackendFixtures.message("m1")], serves: .pages, latency: .seconds(1),
            reachable: network)

        // When a page is asked offline, then online
        let (offline, offlineTime) = await clock.drive { try await reader.messages(in: "c1", before: nil, limit: 5) }
        network.set(online: true)
        let (online, onlineTime) = await clock.drive { try await reader.messages(in: "c1", before: nil, limit: 5) }

        // Then the first failed at once and never reached it; the second took the latency and answered
        #expect(offline.map(\.messages) == .failure(.offline))
        #expect(offlineTime == 0)
        #expect(try online.get().messages.map(\.id) == ["m1"])
        #expect(onlineTime == 1)
        #expect(reader.pageRequests == [nil])
    }

    @Test("a script set while the test runs plays from the next request; one past it is unexpected")
    func scriptSetLater() async throws {
        // Given a reader that answered one page, then is scripted to fail the next one
        let reader = FakeMessageRepository(clock: clock, history: [BackendFixtures.message("m1")], serves: .pages)
        _ = try await reader.messages(in: "c1", before: nil, limit: 5)
        reader.script = [.fail(.timeout)]

        // When it is asked twice more
        await #expect(throws: DeliveryError.timeout) { try await reader.messages(in: "c1", before: nil, limit: 5) }
        await withKnownIssue("the third request is past the script") {
            await #expect(throws: FakeCallError.unscripted(request: 3).deliveryError) {
                try await reader.messages(in: "c1", before: nil, limit: 5)
            }
        }

        // Then all three were recorded
        #expect(reader.pageRequests == [nil, nil, nil])
    }
}
