import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation
import Testing

@testable import CourierApp

/// The simulation's convergence check cannot pass vacuously: fed what the backend holds it finds nothing, and fed
/// a deliberately stale device — a message missing, one twice, a phantom, the wrong order, text, status, preview,
/// unread count or list order — it names the difference.
@MainActor
@Suite("Simulation: the convergence check")
struct SimulationConvergenceCheckTests {
    private static let start = Date(timeIntervalSince1970: 1_767_258_000)
    private let backend: InMemoryChatBackend

    init() throws { backend = try Self.makeBackend(readByMe: true) }

    /// The demo data, and in Ben's conversation (c2, three messages) mine, then Ben's two; Ben's device has mine;
    /// with `readByMe`, my read receipt up to Ben's newest reached the backend.
    private static func makeBackend(readByMe: Bool) throws -> InMemoryChatBackend {
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: start), journal: InMemoryBackendJournal())
        let sent = [("mine-1", "me", "On my way"), ("ben-1", "ben", "Great"), ("ben-2", "ben", "See you")]
        var cursors: [MessageCursor] = []
        for (offset, (id, sender, text)) in sent.enumerated() {
            let stored = try backend.receive(
                Message(
                    id: MessageID(id), conversationID: "c2", senderID: UserID(sender), text: text,
                    timestamp: start.addingTimeInterval(Double(60 + offset)), status: .sent))
            cursors.append(stored.cursor)
        }
        try backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .delivered, upTo: cursors[1]))
        if readByMe {
            try backend.markReceipt(Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: cursors[2]))
        }
        return backend
    }

    private var fresh: BackendFetch { BackendFetch(backend: backend, user: "me", chats: ["c2"]) }

    /// What a device that shows exactly the backend's state shows, with Ben's chat open from its first message.
    private func converged() -> ShownScreens {
        let fetch = fresh
        let rows = (fetch.messages["c2"] ?? []).map { message in
            MessageRow(
                id: message.id, text: message.text, status: message.status, senderID: message.senderID,
                statusLabel: "", isOutgoing: message.senderID == "me", timeText: "", canRetry: false)
        }
        let list = fetch.conversations.prefix(50).map { conversation in
            ConversationsListItem(
                id: conversation.id, title: "", preview: conversation.lastMessage?.text ?? "", timestamp: "",
                unreadCount: conversation.id == "c2" ? 0 : conversation.unreadCount)
        }
        return ShownScreens(
            chat: ShownScreens.OpenChat(conversation: "c2", rows: rows), list: Array(list), queuedReads: [],
            pending: [])
    }

    private func violations(_ change: (inout ShownScreens) -> Void) -> [String] {
        var shown = converged()
        change(&shown)
        return ConvergenceCheck.violations(shown: shown, fresh: fresh)
    }

    /// Changes the open chat's rows.
    private func rowViolations(_ change: (inout [MessageRow]) -> Void) -> [String] {
        violations { shown in
            var rows = shown.chat?.rows ?? []
            change(&rows)
            shown.chat?.rows = rows
        }
    }

    private func index(of id: MessageID, in rows: [MessageRow]) -> Int { rows.firstIndex { $0.id == id } ?? 0 }

    @Test("a device that shows what the backend holds passes, and the check reads a chat and fifty list rows")
    func theBackendsOwnStatePasses() throws {
        let shown = converged()
        #expect(ConvergenceCheck.violations(shown: shown, fresh: fresh) == [])
        #expect(shown.chat?.rows.count == 6)
        #expect(shown.list.count == 50)
    }

    @Test("a stale chat is caught: a message missing, shown twice, a phantom, out of order, old text or status")
    func aStaleChatIsCaught() {
        let missing = rowViolations({ rows in rows.remove(at: index(of: "ben-1", in: rows)) })
        #expect(missing.contains { $0.hasPrefix("the chat of c2 lacks 1 message(s) the backend holds") })

        let twice = rowViolations({ rows in rows.append(rows[rows.count - 1]) })
        #expect(twice.contains("the chat of c2 shows ben-2 twice"))

        let phantom = rowViolations({ rows in
            rows.append(
                MessageRow(
                    id: "ghost", text: "?", status: .sent, senderID: "me", statusLabel: "", isOutgoing: true,
                    timeText: "", canRetry: false))
        })
        #expect(phantom.contains("the chat of c2 shows ghost (sent), which neither the backend nor the outbox holds"))

        let swapped = rowViolations({ rows in
            rows.swapAt(index(of: "ben-1", in: rows), index(of: "ben-2", in: rows))
        })
        #expect(swapped.contains { $0.hasPrefix("the chat of c2 shows ben-2 where the backend puts ben-1 (row ") })

        let oldText = rowViolations({ rows in rows[index(of: "mine-1", in: rows)].text = "On my wya" })
        #expect(oldText.contains("the chat of c2 shows mine-1 as \"On my wya\"; the backend holds \"On my way\""))

        let oldStatus = rowViolations({ rows in rows[index(of: "mine-1", in: rows)].status = .sent })
        #expect(oldStatus.contains("the chat of c2 shows mine-1 sent; the backend reports delivered"))
    }

    @Test("an open chat showing the newest message while the backend counts it unread is caught")
    func anUnsentReadReceiptIsCaught() throws {
        // Given Ben's chat shows his newest message, but my read receipt never reached the backend
        let unread = BackendFetch(backend: try Self.makeBackend(readByMe: false), user: "me", chats: ["c2"])
        var shown = converged()
        let count = unread.conversations.first { $0.id == "c2" }?.unreadCount ?? 0

        // When the device has no receipt queued, then when it has one on its way
        let lost = ConvergenceCheck.violations(shown: shown, fresh: unread)
        shown.queuedReads = ["c2"]
        let waiting = ConvergenceCheck.violations(shown: shown, fresh: unread)

        // Then the lost receipt is a divergence; the one on its way is not (the list shows 0 for the open chat)
        #expect(count > 0)
        #expect(lost == ["the chat of c2 shows its newest message, yet the backend counts \(count) unread"])
        #expect(waiting == [])
    }

    @Test("a stale list is caught: an old preview, a wrong unread count, a row out of place or twice")
    func aStaleListIsCaught() {
        let firstOther = converged().list.first { $0.id != "c2" }?.id ?? "c1"

        let preview = violations { shown in shown.list[0].preview = "Perfect, see you there." }
        #expect(preview.contains { $0.hasPrefix("the list previews \(converged().list[0].id) as") })

        let unread = violations { shown in
            if let index = shown.list.firstIndex(where: { $0.id == firstOther }) { shown.list[index].unreadCount += 1 }
        }
        #expect(unread.contains { $0.hasPrefix("the list counts") && $0.contains("unread in \(firstOther)") })

        let openUnread = violations { shown in
            if let index = shown.list.firstIndex(where: { $0.id == "c2" }) { shown.list[index].unreadCount = 3 }
        }
        #expect(openUnread.contains("the list counts 3 unread in c2, whose chat is open"))

        let order = violations { shown in shown.list.swapAt(0, 1) }
        #expect(order.contains { $0.hasPrefix("the list shows \(converged().list[1].id) at row 0") })

        let twice = violations { shown in shown.list.append(shown.list[0]) }
        #expect(twice.contains("the list shows \(converged().list[0].id) twice"))
    }

    @Test("a read receipt still queued on the device excuses the backend's count")
    func aQueuedReadExcusesTheBackendsCount() throws {
        // Given the device read a conversation with unread messages, and shows 0 where the backend, not told yet,
        // counts them
        let fetch = fresh
        let read = try #require(fetch.conversations.prefix(50).first { $0.id != "c2" && $0.unreadCount > 0 })
        var shown = converged()
        if let index = shown.list.firstIndex(where: { $0.id == read.id }) { shown.list[index].unreadCount = 0 }
        let unsent = ConvergenceCheck.violations(shown: shown, fresh: fetch)
        shown.queuedReads = [read.id]

        // Then without the queued receipt that is a divergence, with it not
        #expect(unsent == ["the list counts 0 unread in \(read.id); the backend counts \(read.unreadCount)"])
        #expect(ConvergenceCheck.violations(shown: shown, fresh: fetch) == [])
    }

    @Test("a failed message of this device lifts its conversation's row to when it was composed, and only it")
    func aFailedMessageLiftsItsRow() throws {
        // Given the list with the third row moved to the top, as a message composed there but failed puts it
        let fetch = fresh
        var shown = converged()
        let lifted = shown.list.remove(at: 2)
        shown.list.insert(lifted, at: 0)
        let newest = try #require(fetch.conversations.first?.lastActivity)
        let failed = Message(
            id: "failed-1", conversationID: lifted.id, senderID: "me", text: "Not yet",
            timestamp: newest.addingTimeInterval(5), status: .failed)
        let unexplained = ConvergenceCheck.violations(shown: shown, fresh: fetch)

        // When the device's outbox holds that failed message, composed after every conversation's last activity
        shown.pending = [failed]

        // Then the lifted row is explained by it, and without it the same order is caught
        #expect(unexplained.contains { $0.hasPrefix("the list shows \(lifted.id) at row 0") })
        #expect(ConvergenceCheck.violations(shown: shown, fresh: fetch) == [])

        // And a failed message composed before the row's own activity lifts nothing
        shown.pending = [
            Message(
                id: "failed-2", conversationID: lifted.id, senderID: "me", text: "Old",
                timestamp: Self.start.addingTimeInterval(-86_400), status: .failed)
        ]
        #expect(ConvergenceCheck.violations(shown: shown, fresh: fetch).contains { $0.contains("at row 0") })
    }
}
