import CourierDomain
import Foundation
import Testing

@testable import CourierStore

/// The outcomes an outbox's store refused to record, alone: counted, the last said in words.
@Suite struct StorageFailuresTests {
    @Test func eachRefusalIsCountedAndTheLastSaysWhichMessageWhyAndWhereItStays() {
        var failures = StorageFailures()
        #expect(failures.count == 0 && failures.last == nil)

        let message = Message(
            id: "0123456789abcdef", conversationID: "c1", senderID: "me", text: "hi",
            timestamp: Date(timeIntervalSinceReferenceDate: 0), status: .sending)
        failures.record(message, "was to be sent", StoreError.io("disk full"), staysAs: "queued, unsent")
        failures.record(message, "was delivered", StoreError.io("disk full"), staysAs: "on disk as sending")

        #expect(failures.count == 2)
        #expect(
            failures.last?.hasPrefix("message @01234567 was delivered, but the disk refused to record it (") == true)
        #expect(failures.last?.hasSuffix("); it stays on disk as sending") == true)
    }
}
