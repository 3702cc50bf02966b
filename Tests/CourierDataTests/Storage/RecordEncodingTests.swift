import CourierDomain
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// Every record type's binary body: what is written reads back the same, and damaged or newer bodies are refused.
@Suite struct RecordEncodingTests {
    static let when = Date(timeIntervalSinceReferenceDate: 785_000_000.125)

    static let message = Message(
        id: "m1", conversationID: "c1", senderID: "ana", text: "hello “there” 👋", timestamp: when, status: .read,
        statusUpdatedAt: when.addingTimeInterval(3), attempts: 2, lastError: .validation(reason: "too long"),
        media: MediaAttachment(url: "https://x/p.jpg", thumbnailURL: "https://x/t.jpg"))

    static let errors: [DeliveryError] = [
        .offline, .timeout, .server(code: 503), .unauthorized, .forbidden, .validation(reason: ""), .notFound,
        .conflict, .unknown("boom"),
    ]

    static let writeRecords: [WriteQueueRecord] =
        [
            .put(
                PendingWrite(
                    id: "w1", kind: "profile.name", key: "displayName", payload: Data("{}".utf8), createdAt: when)),
            .put(
                PendingWrite(
                    id: "w2", kind: "rating", payload: Data([0, 0xFF, 0x7B]), createdAt: when, attempts: 3,
                    lastError: .timeout),
                replacing: "w1"),
            .attempt(PendingWrite(id: "w3", kind: "k", payload: Data(), createdAt: when, attempts: 1)),
        ]
        + WriteQueueRecord.RemovalReason.allCases.map { .remove("w4", because: $0) }
        + errors.map { .attempt(PendingWrite(id: "w5", kind: "k", payload: Data(), createdAt: when, lastError: $0)) }

    static let messageRecords: [MessageCacheRecord] =
        [
            MessageCacheRecord(put: message),
            MessageCacheRecord(
                put: Message(id: "m2", conversationID: "c1", senderID: "me", text: "", timestamp: when, status: .sent)),
            MessageCacheRecord(.start, conversation: "c1"), MessageCacheRecord(.drop, conversation: "c2"),
        ]
        + errors.map { error in
            var message = message
            message.lastError = error
            return MessageCacheRecord(put: message)
        }

    static let conversationRecords: [ConversationCacheRecord] = [
        ConversationCacheRecord(
            Conversation(
                id: "c1", participantIDs: ["me", "ana"], name: "Ana", lastMessage: message, lastActivity: when,
                unreadCount: 2)),
        ConversationCacheRecord(Conversation(id: "c2", participantIDs: [], lastActivity: when)),
    ]

    @Test(arguments: writeRecords) func aWriteQueueRecordReadsBackTheSame(record: WriteQueueRecord) throws {
        #expect(try WriteQueueRecord.decode(record.encoded()) == record)
    }

    @Test(arguments: messageRecords.indices) func aMessageCacheRecordReadsBackTheSame(index: Int) throws {
        let record = Self.messageRecords[index]
        #expect(try MessageCacheRecord.decode(record.encoded()) == record)
    }

    @Test(arguments: conversationRecords.indices) func aConversationCacheRecordReadsBackTheSame(index: Int) throws {
        let record = Self.conversationRecords[index]
        #expect(try ConversationCacheRecord.decode(record.encoded()) == record)
    }

    /// Every body of every type, with the decoder that reads it.
    static func bodies() -> [(body: Data, decode: (Data) throws -> Void)] {
        writeRecords.map { ($0.encoded(), { _ = try WriteQueueRecord.decode($0) }) }
            + messageRecords.map { ($0.encoded(), { _ = try MessageCacheRecord.decode($0) }) }
            + conversationRecords.map { ($0.encoded(), { _ = try ConversationCacheRecord.decode($0) }) }
            + [(OutboxRecord.put(message).encoded(), { _ = try OutboxRecord(body: $0) })]
    }

    @Test func everyBodyStartsWithItsVersionAndKindBytesNeverWithJSON() throws {
        for (body, _) in Self.bodies() {
            #expect(body.first == 2, "the version byte this build writes")
            #expect(body.count >= 2 && body[body.startIndex + 1] >= 1)
            #expect(!LegacyJSONRecord.isJSON(body))
        }
    }

    @Test func aBodyCutShortOrWithBytesLeftOverIsRefused() throws {
        for (body, decode) in Self.bodies() {
            try decode(body)
            for length in 0..<body.count {
                #expect(throws: (any Error).self, "cut to \(length) of \(body.count) bytes") {
                    try decode(body.prefix(length))
                }
            }
            #expect(throws: RecordFormatError.self) { try decode(body + [0]) }
        }
    }

    @Test func aBodyOfANewerVersionIsRefusedAsNewer() throws {
        for (body, decode) in Self.bodies() {
            var newer = body
            newer[newer.startIndex] = 3
            #expect(throws: RecordNewerVersion.self) { try decode(newer) }
        }
    }
}
