import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The contract every `MessageRepository` keeps (its doc comment states it), run against the in-process backend and
/// against the HTTP client over a real `courier-server`: what one allows, the other allows.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct MessageRepositoryContractTests {
    /// The repositories under the contract.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case inProcess, overHTTP
        var testDescription: String { rawValue }
    }

    /// A repository of `kind` signed in as `me`, over the demo data, and what tears it down.
    private func subject(_ kind: Kind) throws -> (any MessageRepository, () -> Void) {
        switch kind {
        case .inProcess:
            let backend = try InMemoryChatBackend(
                seed: DemoData.make(seed: 1, now: ManualClock().now), journal: InMemoryBackendJournal())
            return (backend, {})
        case .overHTTP:
            let fixture = try ServerFixture()
            return (fixture.client, { fixture.tearDown() })
        }
    }

    private static func message(_ text: String, at seconds: Double) -> Message {
        Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: "c2", senderID: "me", text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: .sending)
    }

    @Test(arguments: Kind.allCases) func theIdIsTheIdempotencyKey(kind: Kind) async throws {
        let (repository, tearDown) = try subject(kind)
        defer { tearDown() }
        // contract: sending an id again with the same content stores nothing new and answers the stored message;
        // the same id with other content is `.conflict`, and the stored message is unchanged
        let message = Self.message("hello", at: 789_000_000)
        let stored = try await repository.send(message)
        let again = try await repository.send(message)
        var other = message
        other.text = "changed"
        await #expect(throws: DeliveryError.conflict) { try await repository.send(other) }
        #expect(stored.status == .sent && again.id == stored.id && again.text == "hello")
        let newest = try await repository.messages(in: "c2", before: nil, limit: 10).messages
        #expect(newest.filter { $0.id == message.id }.map(\.text) == ["hello"])
    }

    @Test(arguments: Kind.allCases) func aBatchAnswersEachMessageInOrder(kind: Kind) async throws {
        let (repository, tearDown) = try subject(kind)
        defer { tearDown() }
        // contract: one result per message, in the order sent; each as a send of it alone would have answered
        let stored = try await repository.send(Self.message("first", at: 789_000_000))
        var reused = stored
        reused.text = "other text"
        let fresh = Self.message("second", at: 789_000_001)
        let results = try await repository.sendBatch([fresh, stored, reused])
        #expect(results.count == 3)
        #expect((try? results[0].get())?.id == fresh.id && (try? results[1].get())?.id == stored.id)
        #expect(results[2] == .failure(.conflict))
    }

    @Test(arguments: Kind.allCases) func pagesGoBackInComposeOrderNeverSkippingNorRepeating(kind: Kind) async throws {
        let (repository, tearDown) = try subject(kind)
        defer { tearDown() }
        // contract: pages come oldest first; each `before` cursor gives the page just before it, with no gap
        for index in 0..<7 {
            _ = try await repository.send(Self.message("m\(index)", at: 789_000_000 + Double(index)))
        }
        var seen: [MessageID] = []
        var cursor: MessageCursor?
        repeat {
            let page = try await repository.messages(in: "c2", before: cursor, limit: 3)
            seen.insert(contentsOf: page.messages.map(\.id), at: 0)
            cursor = page.hasMore ? page.messages.first?.cursor : nil
        } while cursor != nil
        #expect(seen.count == 10 && Set(seen).count == 10)
        let all = try await repository.messages(in: "c2", before: nil, limit: 50).messages
        #expect(seen == all.map(\.id))
        #expect(Array(all.suffix(7).map(\.text)) == (0..<7).map { "m\($0)" })
    }
}
