import CourierDomain
import CourierStore
import Foundation

extension SyncEngine {
    // MARK: - Rows: the one place a conversation row is computed

    /// Takes a list page into the conversation cache and answers its rows as kept there: reconciled with the rows the
    /// feed brought by their last messages (`ConversationCache.take(_:countsHold:)`), then cleared where this device
    /// has read further than the backend knows yet.
    ///
    /// `mark` is `readsSettled` when the page was requested (`LiveSync.reconcile(_:requestedAt:)`).
    public func reconcile(_ page: ConversationPage, requestedAt mark: Int) -> ConversationPage {
        var answer = page
        // A page ending at the row's own last message may have been read before a read the feed brought since: the
        // lower count stands — unless the row's count may be short (`uncertainCounts`) and the backend had every
        // read of this device there when it read the page (none is on its way, none was taken since the page was
        // requested: seed 83613), when the page's count is the better one.
        // A page the device kept (`isCached`: the backend did not answer) is the cache's own word, not the backend's:
        // it settles no uncertain count (seed 65229).
        let reading = readsOnTheirWay
        let trusted =
            page.isCached
            ? [] : uncertainCounts.subtracting(reading).filter { !readMarkers.settled($0, since: mark) }
        let rows = conversationCache.take(page.conversations.map(caughtUp), countsHold: { trusted.contains($0) }).map {
            clearingRead($0)
        }
        uncertainCounts.subtract(page.conversations.map(\.id).filter { trusted.contains($0) })
        conversationCache.store(rows)
        answer.conversations = ConversationCache.inActivityOrder(rows)
        return answer
    }

    /// `row`, a list page's, with the messages this device holds that came after it: a page's row ends at the
    /// conversation's newest message when the backend read it, so a held message newer than that one (in compose
    /// order) came after the page was read — through the feed while the page was on its way — and the page did not
    /// count it. The row ends at the newest such message instead, and counts unread each one of someone else's that
    /// no read marker of this device covers, unless its chat is on screen (read as it comes). This is how a page and
    /// the feed never count one message twice nor miss one (docs/design.md §2.7): an arrival the feed brought to a
    /// conversation the cache held no row of yet changed no row (seed 39769). A message of mine waiting for its echo
    /// is not taken: messages of others filed before it may still be on their way, and are counted as they come.
    func caughtUp(_ row: Conversation) -> Conversation {
        guard let last = row.lastMessage else { return row }
        let newer = messageCache.messages(after: last, in: row.id).filter {
            !messageCache.awaitsEcho($0.id, in: row.id)
        }
        guard let newest = newer.first else { return row }
        var raised = row
        raised.lastMessage = newest
        raised.lastActivity = max(row.lastActivity, newest.timestamp)
        if !watched.contains(row.id) {
            raised.unreadCount += newer.count {
                $0.senderID != user && !readMarkers.covers($0.cursor, in: row.id)
            }
        }
        return raised
    }

    /// `row` with what this device knows of reading it that the backend may not have yet: nothing unread when a read
    /// marker this device holds covers its newest message. (A chat on screen is not such knowledge: it marks read
    /// what it shows, and the row follows the marker; the list shows its row with nothing unread meanwhile.) With
    /// `counting` — only
    /// where the message cache is known to hold every message of the conversation up to the row's position (a
    /// start-over's, once what does not join is forgotten) — a marker short of the newest message leaves the
    /// messages of others after it, as the backend will count them once it has the marker.
    func clearingRead(_ row: Conversation, counting: Bool = false) -> Conversation {
        guard row.unreadCount > 0 else { return row }
        var cleared = row
        guard let marker = readMarkers[row.id] else { return cleared }
        guard let last = row.lastMessage, last.cursor > marker else {
            cleared.unreadCount = 0
            return cleared
        }
        let held = messageCache.messages(in: row.id)
        if counting, let oldest = held.first, oldest.cursor <= marker, messageCache.contains(last.id, in: row.id) {
            let after = held.lazy.filter { $0.cursor > marker && $0.cursor <= last.cursor && $0.senderID != self.user }
            cleared.unreadCount = min(cleared.unreadCount, after.count)
        }
        return cleared
    }

    /// The conversations whose read marker this device made and the backend may not have yet (its receipt waits).
    var readsOnTheirWay: Set<ConversationID> {
        Set(
            receipts.allWrites.lazy.filter { $0.kind == Self.receiptKind }
                .compactMap { try? $0.decodePayload(Receipt.self) }
                .filter { $0.kind == .read }.map(\.conversationID))
    }

    /// The row a conversation event leaves: the name and participants it brings, over the preview, activity and
    /// unread count the cache holds (the event's own are the conversation's as stored, nobody's in particular).
    func row(changedBy conversation: Conversation) -> Conversation {
        guard var held = conversationCache.conversation(conversation.id) else { return conversation }
        (held.name, held.participantIDs) = (conversation.name, conversation.participantIDs)
        return held
    }

    /// The user read `conversation` up to `upTo` (here or on another device): its cached unread count becomes the
    /// messages of others after the marker — counted in the message cache when it holds every message from the
    /// marker to the row's newest (it holds no hole), else 0 once the marker covers the newest message. The newest
    /// message may be the user's own, sent after reading: it counts nothing. Returns the row when it changed.
    ///
    /// A row whose newest message the cache does not hold yet came from a list page ahead of the feed: the feed
    /// brings what the backend did in order, so a read it brings before that message was done before the page was
    /// read, and the page's count has it already. The count stays, unless the marker covers the newest message
    /// (seed 11165). So it does, for a read the feed brings (`throughFeed`), when the newest message is this device's
    /// own still waiting for its echo (`MessageCache.awaitsEcho(_:in:)`, kept across launches): the send's answer put
    /// it in the cache, ahead of the feed (seeds 12554 and 5646).
    @discardableResult
    func noteRead(_ conversation: ConversationID, upTo: MessageCursor, throughFeed: Bool = false) -> Conversation? {
        guard var kept = conversationCache.conversation(conversation), kept.unreadCount > 0 else { return nil }
        let held = messageCache.messages(in: conversation)
        let left: Int
        if kept.lastMessage.map({ $0.cursor <= upTo }) ?? true {
            left = 0
        } else if let oldest = held.first, oldest.cursor <= upTo,
            let last = kept.lastMessage, messageCache.contains(last.id, in: conversation),
            !throughFeed || !messageCache.awaitsEcho(last.id, in: conversation)
        {
            left = held.lazy.filter { $0.cursor > upTo && $0.senderID != self.user }.count
        } else {
            return nil
        }
        guard left < kept.unreadCount else { return nil }
        kept.unreadCount = left
        conversationCache.store([kept])
        return kept
    }
}
