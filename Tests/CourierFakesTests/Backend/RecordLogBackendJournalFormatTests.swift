import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierFakes

/// The backend journal's records: the binary layout every store writes, and the JSON of earlier builds still read.
@Suite(.removesTemporaryDirectories) struct RecordLogBackendJournalFormatTests {
    static let message = Message(
        id: "m1", conversationID: "c2", senderID: "me", text: "hello “there”",
        timestamp: Date(timeIntervalSince1970: 1_700_000_000.25), status: .sent)

    /// Exactly what earlier builds appended for these events (JSON, dates in milliseconds since 1970; the compose
    /// sequence they carried is read and dropped).
    static let legacy = [
        #"{"messageStored":{"_0":{"status":"sent","conversationID":"c2","senderID":"me","text":"hello “there”","#
            + #""statusUpdatedAt":1700000000250,"sequence":4,"attempts":0,"timestamp":1700000000250,"id":"m1"}}}"#,
        #"{"displayNameChanged":{"user":"me","name":"Marta"}}"#,
        #"{"messageStored":{"_0":{"status":"sent","conversationID":"c2","senderID":"me","text":"before sequences","#
            + #""statusUpdatedAt":1700000000250,"attempts":0,"timestamp":1700000000250,"id":"m0"}}}"#,
    ].map { Data($0.utf8) }

    /// Receipts of both kinds, one with a compose time no whole number of milliseconds, one long ago.
    static let receipts = [
        Receipt(
            conversationID: "c2", userID: "ben", kind: .delivered,
            upTo: MessageCursor(timestamp: Date(timeIntervalSince1970: 1_700_000_000.123_456_7), id: "m1")),
        Receipt(
            conversationID: "c1", userID: "ana", kind: .read, upTo: MessageCursor(timestamp: .distantPast, id: "x")),
    ]

    @Test func everyEventReadsBackFromItsBinaryBody() throws {
        let events: [BackendEvent] =
            [.messageStored(Self.message), .displayNameChanged(user: "me", name: "Marta"), .feedsTrimmed]
            + Self.receipts.map(BackendEvent.receiptMarked)
        for event in events {
            let body = event.recordBody()
            #expect(body.first == BackendEvent.recordVersion)
            #expect(try BackendEvent(recordBody: body) == event)
            #expect(throws: (any Error).self) { try BackendEvent(recordBody: body.dropLast()) }
        }
    }

    @Test func aJournalOfAnEarlierBuildOpensWithItsEventsAndTakesNewOnes() throws {
        // Given a journal file of JSON records, as earlier builds wrote it
        let path = TemporaryDirectory.unusedURL(prefix: "backend").path
        let old = try RecordLogStorage(path: path)
        try old.append(Self.legacy)
        old.close()

        // When this build opens it and appends to it
        let journal = try RecordLogBackendJournal(path: path)
        var earlier = Self.message
        earlier.id = "m0"
        earlier.text = "before sequences"
        let expected: [BackendEvent] = [
            .messageStored(Self.message), .displayNameChanged(user: "me", name: "Marta"), .messageStored(earlier),
        ]
        #expect(try journal.load() == expected)
        try journal.append([.displayNameChanged(user: "me", name: "Marta B.")])
        journal.close()

        // Then the old events and the new one all replay, in order
        let reopened = try RecordLogBackendJournal(path: path)
        defer { reopened.close() }
        #expect(try reopened.load() == expected + [.displayNameChanged(user: "me", name: "Marta B.")])
    }
}
