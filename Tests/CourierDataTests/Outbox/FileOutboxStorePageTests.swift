import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@Suite("FileOutboxStore pages")
struct FileOutboxStorePageTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    @Test("a conversation's page of pending messages is its newest before the cursor, before and after a reopen")
    func pages() throws {
        // Given 30 messages in two conversations, enqueued out of order, two of them removed
        let store = try open()
        for index in (0..<30).reversed() {
            var message = message(String(format: "m%02d", index), at: TimeInterval(index))
            if index.isMultiple(of: 3) { message.conversationID = "c2" }
            try store.enqueue(message)
        }
        try store.remove(MessageID("m28"))
        try store.remove(MessageID("m01"))
        let expected = store.all().filter { $0.conversationID == "c1" }
        #expect(expected.count == 18)

        let reopened = try reopen(store)
        for candidate in [store, reopened] {
            // When pages of c1 are asked for, from the newest back, and past either end
            let newest = candidate.pending(in: "c1", before: nil, limit: 5)
            let before = candidate.pending(in: "c1", before: expected[10].cursor, limit: 4)
            let start = candidate.pending(in: "c1", before: expected[2].cursor, limit: 5)

            // Then each is the newest `limit` before its cursor, in compose order
            #expect(newest == Array(expected.suffix(5)))
            #expect(before == Array(expected[6..<10]))
            #expect(start == Array(expected[0..<2]))
            #expect(candidate.pending(in: "c1", before: nil, limit: 0).isEmpty)
            #expect(candidate.pending(in: "c9", before: nil, limit: 5).isEmpty)
            #expect(candidate.pending(in: "c2", before: nil, limit: 100).map(\.id.rawValue).first == "m00")
        }
    }
}
