import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A send the backend acknowledged changes each store once: the outbox forgets the message in one record, the
/// message cache keeps it in one, and screens hear `sent` once — whichever of the send's answer and the feed's echo
/// comes first. The outbox alone says what an answer means (at least `sent`, whatever status the backend echoed);
/// it also keeps in the cache what it shows.
@MainActor
@Suite struct CourierClientAcknowledgementTests {
    /// What the client left on disk, read after it closed: the records of the outbox's log and of the message
    /// cache's log, and Ben's chat as a chat opened offline reads it from the cache.
    private struct Written {
        let outboxRecords: Int
        let cacheRecords: Int
        let cached: [Message]
    }

    /// Closes the fixture's client and reads what it wrote.
    private func written(by fixture: SyncFixture) throws -> Written {
        fixture.close()
        let outboxLog = try RecordLogStorage(path: "/app/\(FileOutboxStore.fileName)", fileSystem: fixture.disk)
        let cacheLog = try RecordLogStorage(path: "/app/messages.log", fileSystem: fixture.disk)
        defer {
            outboxLog.close()
            cacheLog.close()
        }
        let cacheRecords = try cacheLog.loadRecords()
        let cached = try MessageCache(storage: InMemoryRecordStorage(records: cacheRecords)).messages(in: "c2")
        return Written(
            outboxRecords: try outboxLog.loadRecords().count, cacheRecords: cacheRecords.count, cached: cached)
    }

    /// Records the statuses the outbox announces.
    private final class Announced {
        var statuses: [MessageStatus] = []
        var token: ObservationToken?
    }

    private func recordAnnouncements(of client: CourierClient) -> Announced {
        let announced = Announced()
        announced.token = client.outbox.observe { [announced] event in
            if case .changed(let message) = event { announced.statuses.append(message.status) }
        }
        return announced
    }

    @Test("the send's answer changes the outbox and the cache once each; the echo after it only notes it came")
    func anAnswerThenItsEcho() async throws {
        // Given a live client (the backend answers a send in 50 ms)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let announced = recordAnnouncements(of: client)

        // When a message is sent, answered, and then echoed by the feed
        var echo = try client.outbox.compose(text: "hello", in: "c2")
        await fixture.settle()
        echo.status = .sent
        fixture.feed.push(.message(echo))
        await fixture.settle()

        // Then screens heard it sending, then sent, once; the outbox wrote its compose and its delivery; the cache
        // wrote it once, and that its echo came (a small record: until then the feed has not reached it, which an
        // unread count needs to know); a chat opened offline reads it sent
        #expect(announced.statuses == [.sending, .sent])
        let disk = try written(by: fixture)
        #expect(disk.outboxRecords == 2)
        #expect(disk.cacheRecords == 2)
        #expect(disk.cached.map(\.text) == ["hello"])
        #expect(disk.cached.map(\.status) == [.sent])
    }

    @Test("the echo before the send's answer keeps the message once in each store, notes the echo; the answer: nothing")
    func anEchoThenTheAnswer() async throws {
        // Given a live client (the backend answers a send in 50 ms)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let announced = recordAnnouncements(of: client)

        // When a message is sent, the feed echoes it 10 ms in, and the send's answer comes after
        var echo = try client.outbox.compose(text: "hello", in: "c2")
        echo.status = .sent
        await fixture.clock.advance(by: .milliseconds(10))
        fixture.feed.push(.message(echo))
        await fixture.settle()

        // Then all the same: sent announced once, one record for the outbox's delivery, and the cache's message and
        // the note that its echo came
        #expect(fixture.messages.stored.map(\.id) == [echo.id])
        #expect(announced.statuses == [.sending, .sent])
        let disk = try written(by: fixture)
        #expect(disk.outboxRecords == 2)
        #expect(disk.cacheRecords == 2)
        #expect(disk.cached.map(\.status) == [.sent])
    }

    @Test("a message a backend echoes as given is shown sent and cached sent, so a chat opened offline says Sent")
    func anEchoingBackend() async throws {
        // Given a backend that answers a send with the message exactly as it was given (status `sending`)
        let fixture = SyncFixture()
        fixture.messages.reply = .asGiven
        let client = try await fixture.open()
        let announced = recordAnnouncements(of: client)

        // When a message is sent and answered
        try client.outbox.compose(text: "hello", in: "c2")
        await fixture.settle()

        // Then it is sent on screen and in the cache, written there once
        #expect(fixture.messages.stored.map(\.status) == [.sending])
        #expect(announced.statuses == [.sending, .sent])
        let disk = try written(by: fixture)
        #expect(disk.cacheRecords == 1)
        #expect(disk.cached.map(\.status) == [.sent])
    }
}
