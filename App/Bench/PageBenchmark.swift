import CourierData
import CourierDomain
import Foundation

/// `courier-bench page`: one page of 50 by cursor from a conversation of 1,000 messages against one of 100,000
/// (issue 4, point 1), both in one `InMemoryChatBackend`, at random cursors. A page is a binary search plus a copy
/// of 50 messages, so the long conversation should cost about the same.
@MainActor
struct PageBenchmark {
    private let pageSize = 50
    private let rounds = 400
    private let fetchesPerSample = 100
    private let small: ConversationID = "small"
    private let large: ConversationID = "large"

    func run() throws {
        let now = Date(timeIntervalSince1970: 1_767_258_000)
        let sizes = [small: 1_000, large: 100_000]
        var messages: [ConversationID: [Message]] = [:]
        let ids = IDGenerator.seeded(5)
        for (conversation, count) in sizes {
            messages[conversation] = (0..<count).map { index in
                Message(
                    id: ids.next(), conversationID: conversation, senderID: index % 3 == 0 ? "me" : "ana",
                    text: "Message \(index) — did you see the platform change?",
                    timestamp: now.addingTimeInterval(Double(index - count) * 30), status: .sent)
            }
        }
        let data = DemoData(
            signedInUser: "me", users: [User(id: "me", displayName: "Me"), User(id: "ana", displayName: "Ana")],
            conversations: [small, large].map {
                Conversation(id: $0, participantIDs: ["me", "ana"], lastActivity: now.addingTimeInterval(-86_400))
            },
            messages: (messages[small] ?? []) + (messages[large] ?? []))
        let backend = try InMemoryChatBackend(seed: data, journal: InMemoryBackendJournal())
        guard backend.messageCount(in: small) == 1_000, backend.messageCount(in: large) == 100_000 else {
            throw BenchFailure("the backend does not hold 1,000 and 100,000 messages")
        }
        var random = SeededRandom(seed: 17)
        var smallSamples: [Double] = []
        var largeSamples: [Double] = []
        var checksum = 0
        for round in 0..<rounds {
            // Alternate which side goes first, so neither always meets a warm cache left by the other.
            let order = round.isMultiple(of: 2) ? [small, large] : [large, small]
            for conversation in order {
                let pool = messages[conversation] ?? []
                let cursors = (0..<fetchesPerSample).map { _ in
                    pool[pageSize + Int(random.next() % UInt64(pool.count - pageSize))].cursor
                }
                let seconds = try Bench.time {
                    for cursor in cursors {
                        let page = try backend.messages(in: conversation, before: cursor, limit: pageSize)
                        checksum &+= page.messages.count &+ (page.messages.last?.id.rawValue.utf8.count ?? 0)
                    }
                }
                let perFetch = seconds / Double(fetchesPerSample)
                if conversation == small { smallSamples.append(perFetch) } else { largeSamples.append(perFetch) }
            }
        }
        let expected = 2 * rounds * fetchesPerSample * (pageSize + 36)
        guard checksum == expected else { throw BenchFailure("pages were not all \(pageSize) messages") }
        let ours = Bench.median(largeSamples)
        let baseline = Bench.median(smallSamples)
        let rows = [
            [
                "page of \(pageSize) by cursor, median per fetch (\(rounds) × \(fetchesPerSample) random cursors)",
                Bench.format(ours), Bench.format(baseline), Bench.ratio(ours / baseline), "≤ 2.00×",
                Bench.verdict(ours / baseline <= 2),
            ],
            [
                "p99 of the \(rounds) samples", Bench.format(Bench.percentile(largeSamples, 99)),
                Bench.format(Bench.percentile(smallSamples, 99)),
                Bench.ratio(Bench.percentile(largeSamples, 99) / Bench.percentile(smallSamples, 99)), "—", "",
            ],
        ]
        print("## courier-bench page\n")
        print(Bench.table(header: ["measurement", "100,000 messages", "1,000 messages", "ratio", "floor", "met"], rows: rows))
    }
}
