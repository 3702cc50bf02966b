import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@Suite("FileOutboxStore pages", .removesTemporaryDirectories)
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

    @Test("a page shows each message as last changed, and never one removed, before and after a reopen")
    func pagesFollowChanges() throws {
        // Given 12 messages in two conversations
        let store = try open()
        for index in 0..<12 {
            var message = message(String(format: "m%02d", index), at: TimeInterval(index))
            if index.isMultiple(of: 2) { message.conversationID = "c2" }
            try store.enqueue(message)
        }

        // When one is edited, one fails, one is removed and one is added between two others
        try store.updateText(of: "m05", to: "edited")
        try store.updateStatus(of: "m07", to: .failed, at: Date(), attempts: 1, lastError: .timeout)
        try store.remove("m09")
        try store.enqueue(message("m04b", at: 4.5))

        // Then c1's page is the store's own view of c1, in compose order, and so is it after a reopen
        let reopened = try reopen(store)
        for candidate in [store, reopened] {
            let page = candidate.pending(in: "c1", before: nil, limit: 50)
            #expect(page == candidate.all().filter { $0.conversationID == "c1" })
            #expect(page.map(\.id.rawValue) == ["m01", "m03", "m04b", "m05", "m07", "m11"])
            #expect(page.first { $0.id == "m05" }?.text == "edited")
            #expect(page.first { $0.id == "m07" }?.status == .failed)
        }
    }
}
