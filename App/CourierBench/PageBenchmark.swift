import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier-bench page`: one page of 50 by cursor from a conversation of 1,000 messages against one of 100,000
///, both in one `InMemoryChatBackend`, at random cursors. A page is an id lookup plus a copy
/// of 50 messages, so the long conversation should cost about the same.
@MainActor
struct PageBenchmark {
    private let pageSize = 50
    private let rounds = 400
    private let fetchesPerSample = 100
    private let small: ConversationID = "small"
    private let large: ConversationID = "large"
    private let coldSamples = 200
    /// Larger than the last-level cache (32 MiB on the reference machine), so a sweep over it evicts everything.
    private let evictionBytes = 64 << 20

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
        let cold = try coldFetches(backend: backend, messages: messages, random: &random)
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
            [
                "cold cache: median of \(coldSamples) single fetches, each after evicting the caches",
                Bench.format(cold.large), Bench.format(cold.small), Bench.ratio(cold.large / cold.small), "—", "",
            ],
        ]
        print("## courier-bench page\n")
        let header = ["measurement", "100,000 messages", "1,000 messages", "ratio", "floor", "met"]
        print(Bench.table(header: header, rows: rows))
    }

    // MARK: - Cold cache

    /// Single fetches, each after reading a buffer larger than the caches, so that both conversations are fetched
    /// from memory: what is left of the difference is the algorithm's, not the cache's.
    private func coldFetches(
        backend: InMemoryChatBackend, messages: [ConversationID: [Message]], random: inout SeededRandom
    ) throws -> (small: Double, large: Double) {
        var sweep = [UInt8](repeating: 1, count: evictionBytes)
        var sink = 0
        var samples: [ConversationID: [Double]] = [:]
        for round in 0..<coldSamples {
            for conversation in round.isMultiple(of: 2) ? [small, large] : [large, small] {
                let pool = messages[conversation] ?? []
                let cursor = pool[pageSize + Int(random.next() % UInt64(pool.count - pageSize))].cursor
                sweep.withUnsafeMutableBytes { bytes in
                    for offset in stride(from: round % 64, to: bytes.count, by: 64) {
                        sink &+= Int(bytes[offset])
                        bytes[offset] &+= 1
                    }
                }
                var count = 0
                let seconds = try Bench.time {
                    count = try backend.messages(in: conversation, before: cursor, limit: pageSize).messages.count
                }
                guard count == pageSize else { throw BenchFailure("a cold page held \(count) messages") }
                samples[conversation, default: []].append(seconds)
            }
        }
        if sink == 42 { print("") }  // keeps the sweep from being optimised away
        return (Bench.median(samples[small] ?? []), Bench.median(samples[large] ?? []))
    }
}
