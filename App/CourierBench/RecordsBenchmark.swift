import CourierData
import CourierDomain
import Foundation

/// `courier-bench records`: every record type's body, encoded and decoded, in the binary layout every store writes
/// (docs/storage-format.md) against JSON of the same values through a reused `JSONEncoder` / `JSONDecoder` — the
/// write queue's and the caches' bodies before the binary layout.
struct RecordsBenchmark {
    private let count = 10_000
    private let repeats = 7

    /// One record type: how to encode one value either way, and how to decode it back.
    private struct Subject {
        let name: String
        let binary: (Int) -> Data
        let decodeBinary: (Data) throws -> Int
        let json: (Int) throws -> Data
        let decodeJSON: (Data) throws -> Int
    }

    func run() throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        // The values are made once, so that both columns time encoding alone.
        let messages = (0..<count).map(Self.message)
        let writes = (0..<count).map(Self.write)
        let conversations = (0..<count).map(Self.conversation)
        let subjects = [
            Subject(
                name: "write queue (put)", binary: { WriteQueueRecord.put(writes[$0]).encoded() },
                decodeBinary: { try WriteQueueRecord.decode($0).write?.payload.count ?? 0 },
                json: { try encoder.encode(writes[$0]) },
                decodeJSON: { try decoder.decode(PendingWrite.self, from: $0).payload.count }),
            Subject(
                name: "message cache (put)", binary: { MessageCacheRecord(put: messages[$0]).encoded() },
                decodeBinary: { try MessageCacheRecord.decode($0).message?.text.utf8.count ?? 0 },
                json: { try encoder.encode(messages[$0]) },
                decodeJSON: { try decoder.decode(Message.self, from: $0).text.utf8.count }),
            Subject(
                name: "conversation cache", binary: { ConversationCacheRecord(conversations[$0]).encoded() },
                decodeBinary: { try ConversationCacheRecord.decode($0).conversation.unreadCount },
                json: { try encoder.encode(conversations[$0]) },
                decodeJSON: { try decoder.decode(Conversation.self, from: $0).unreadCount }),
            Subject(
                name: "outbox (put)", binary: { OutboxRecord.put(messages[$0]).encoded() },
                decodeBinary: { Int(try OutboxRecord(body: $0).kind.rawValue) },
                json: { try encoder.encode(messages[$0]) },
                decodeJSON: { try decoder.decode(Message.self, from: $0).text.utf8.count }),
        ]
        var rows: [[String]] = []
        for subject in subjects { rows.append(try measure(subject)) }
        print("## courier-bench records\n")
        print("\(count.formatted()) records of each type, encoded then decoded; median of \(repeats) runs.\n")
        print(
            Bench.table(
                header: [
                    "record", "binary encode", "JSON encode", "ratio", "binary decode", "JSON decode", "ratio",
                    "bytes (binary / JSON)",
                ],
                rows: rows))
    }

    private func measure(_ subject: Subject) throws -> [String] {
        var times = (binaryEncode: [Double](), jsonEncode: [Double](), binaryDecode: [Double](), jsonDecode: [Double]())
        var binary: [Data] = []
        var json: [Data] = []
        var checksum = 0
        // Alternate the two sides in every round, so both meet the same machine weather.
        for _ in 0..<repeats {
            times.binaryEncode.append(Bench.time { binary = (0..<count).map(subject.binary) })
            times.jsonEncode.append(try Bench.time { json = try (0..<count).map(subject.json) })
            times.binaryDecode.append(
                try Bench.time { for body in binary { checksum &+= try subject.decodeBinary(body) } })
            times.jsonDecode.append(try Bench.time { for body in json { checksum &+= try subject.decodeJSON(body) } })
        }
        guard checksum != 0 else { throw CocoaError(.coderReadCorrupt) }
        let median = (
            binaryEncode: Bench.median(times.binaryEncode), jsonEncode: Bench.median(times.jsonEncode),
            binaryDecode: Bench.median(times.binaryDecode), jsonDecode: Bench.median(times.jsonDecode)
        )
        let bytes = (binary: binary.reduce(0) { $0 + $1.count } / count, json: json.reduce(0) { $0 + $1.count } / count)
        return [
            subject.name, Bench.format(median.binaryEncode), Bench.format(median.jsonEncode),
            Bench.ratio(median.binaryEncode / median.jsonEncode), Bench.format(median.binaryDecode),
            Bench.format(median.jsonDecode), Bench.ratio(median.binaryDecode / median.jsonDecode),
            "\(bytes.binary) / \(bytes.json)",
        ]
    }

    // MARK: - Values, as a chat produces them

    private static let start = Date(timeIntervalSinceReferenceDate: 785_000_000)

    private static func message(_ index: Int) -> Message {
        Message(
            id: MessageID("msg-\(index)-5b1c0f2e"), conversationID: ConversationID("conversation-\(index % 50)"),
            senderID: UserID(index.isMultiple(of: 3) ? "me" : "user-\(index % 7)"),
            text: "Message \(index): see you at the station at half past, I'll bring the tickets.",
            timestamp: start.addingTimeInterval(Double(index)), status: .delivered,
            statusUpdatedAt: start.addingTimeInterval(Double(index) + 0.4))
    }

    private static func write(_ index: Int) -> PendingWrite {
        PendingWrite(
            id: "write-\(index)-9a3e", kind: "profile.name", key: "displayName",
            payload: Data(#"{"name":"Ana \#(index)"}"#.utf8), createdAt: start.addingTimeInterval(Double(index)))
    }

    private static func conversation(_ index: Int) -> Conversation {
        Conversation(
            id: ConversationID("conversation-\(index)"), participantIDs: ["me", UserID("user-\(index % 7)")],
            name: index.isMultiple(of: 4) ? "Team \(index)" : nil, lastMessage: message(index),
            lastActivity: start.addingTimeInterval(Double(index)), unreadCount: index % 5)
    }
}
