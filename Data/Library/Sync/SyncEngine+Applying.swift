import CourierDomain
import CourierStore
import Foundation

extension SyncEngine {
    // MARK: - Applying a batch

    /// Applies `batch`'s events above the cursor, in order, then writes the cursor (see the type: a kill in between
    /// replays harmlessly), then tells observers. Throws when the cursor cannot be written: the batch is asked
    /// for again, and applying it again changes nothing.
    func apply(_ batch: FeedBatch) throws {
        let floor = cursor ?? .start
        var run = BatchRun()
        // Where each of the user's messages comes in this batch: a receipt before its echo does not cover it.
        var echoes: [MessageID: Int] = [:]
        for (index, event) in batch.events.enumerated() {
            if case .message(let message) = event.change, message.senderID == user { echoes[message.id] = index }
        }
        // A replay of what was applied before a kill is skipped where the backend orders its positions; elsewhere
        // applying it again changes nothing.
        for (index, event) in batch.events.enumerated()
        where !(event.position == floor || event.position.precedes(floor) == true) {
            appliedEvents += 1
            switch event.change {
            case .message(let message): take(message, into: &run)
            case .receipt(let receipt):
                run.flush(into: self)
                take(receipt, at: index, laterEchoes: echoes, into: &run)
            case .conversation(let conversation):
                run.flush(into: self)
                let row = row(changedBy: conversation)
                conversationCache.store([row])
                run.updates.append(.conversation(conversation))
                run.updates.append(.rows([row]))
            case .deletion(let deletion):
                run.flush(into: self)
                take(deletion, into: &run)
            }
        }
        run.flush(into: self)
        try cursorLog.write(.init(cursor: batch.end, resets: resets, uncertain: durableUncertainCounts))
        for update in run.updates { observers.notify(update) }
        // One durable append for the batch's receipts, however many conversations it touched. While more batches
        // follow at once they only wait in the queue, where the next batch's replace them: a catch-up sends one
        // delivered receipt per conversation when it reaches the end, not one per batch.
        // A backend without delivered markers (a Matrix homeserver) is sent none.
        queueReceipts(
            !feed.deliveredReceipts
                ? []
                : run.received.sorted(by: { $0.key < $1.key }).map { conversation, upTo in
                    Receipt(conversationID: conversation, userID: user, kind: .delivered, upTo: upTo)
                }, deliver: false)
        if !batch.hasMore { deliverReceipts() }
    }

    /// A stored message: an echo of this device's pending one confirms it; any other message new to this device
    /// is kept and shown; the list's preview, order and unread count follow.
    private func take(_ message: Message, into run: inout BatchRun) {
        let mine = message.senderID == user
        let confirmed = mine && outbox.confirmStored(asFarAsCached(message))
        // Not confirmed (its outbox copy is gone: deleted after a failed send the backend had stored), it is shown
        // as the cache has it when that went further: a page may have brought it already raised (seed 69622).
        let message = mine && !confirmed ? coveredAlready(asFarAsCached(message)) : message
        // Sent by an earlier launch, whose outbox event screens of this launch never heard: shown as it echoes.
        let unannounced = mine && !confirmed && !echoes.takeAnnouncement(of: message.id)
        if mine {
            echoes.echoCame(message.id)
            run.echoed.append((message.id, message.conversationID))
        }
        let known =
            confirmed || run.ids.contains(message.id)
            || (messageCache.contains(message.id, in: message.conversationID) && !unannounced)
        if known, !confirmed {
            if mine { refile(message, into: &run) }
            // Already held — this device's message whose send was answered before its echo came, a message a chat's
            // page brought before its event came, or a replayed batch. Where the conversation has not taken it in
            // (`touch` changes it), it is news to the list: someone else's is shown, and counts unread as new ones
            // do; a replay changes nothing.
            let unread = !mine && !watched.contains(message.conversationID)
            if !mine, !unread { run.readOnScreen(message) }
            if run.touch(message, unread: unread, in: self) {
                if !mine { run.announced.append(message) }
            } else if unread {
                uncertainCounts.insert(message.conversationID)
            }
            return
        }
        // A confirmed echo is shown through the outbox's own event, and kept for offline reading by the outbox as it
        // shows it: one change, as when the send's answer comes first.
        if !confirmed {
            run.messages.append(message)
            run.announced.append(message)
            run.ids.insert(message.id)
        }
        if !mine {
            let conversation = message.conversationID
            run.received[conversation] = max(run.received[conversation] ?? message.cursor, message.cursor)
        }
        let unread = !mine && !watched.contains(message.conversationID)
        if !mine, !unread { run.readOnScreen(message) }
        // Not newer than the row's last, it is taken as counted already (a page counted it) — or it was filed before
        // a message the row already has (written on a clock behind): the row's count may be short, and the next
        // page ending at the same message is taken at its word.
        if !run.touch(message, unread: unread, in: self), unread { uncertainCounts.insert(message.conversationID) }
    }

    /// This device's message, held where the send's answer put it, echoed at another position: the backend's answer
    /// said only that it stored it (a Matrix homeserver's `PUT` answers an event id, and the message stands at its
    /// compose stamp until its echo), or a page held an older copy. The echo is the backend's word on where it is
    /// filed: it moves there, in the cache and on the open chat, keeping the status it reached.
    private func refile(_ echo: Message, into run: inout BatchRun) {
        guard let held = messageCache.message(echo.id, in: echo.conversationID), held.cursor != echo.cursor else {
            return
        }
        var moved = echo
        moved.status = max(held.status, echo.status)
        messageCache.store([moved])
        run.announced.append(moved)
    }

    /// A message its sender deleted: it goes from the cache, from the outbox (a copy of mine still waiting here — a
    /// send whose outcome was unknown, a failed one — is never sent again), from the screens, and from its row,
    /// which previews the message before it as the cache holds it and no longer counts it unread.
    private func take(_ deletion: MessageDeletion, into run: inout BatchRun) {
        let conversation = deletion.conversationID
        let row = conversationCache.conversation(conversation)
        // Named by the backend's own id when the backend could not tell its Courier id (learned in an earlier
        // process): the message held with that server id is the one.
        var id = deletion.messageID
        if !messageCache.contains(id, in: conversation), let serverID = deletion.serverID {
            if let known = messageCache.id(forServerID: serverID, in: conversation) {
                id = known
            } else if let last = row?.lastMessage, last.serverID == serverID {
                id = last.id
            }
        }
        let held = messageCache.remove(id, in: conversation)
        if outbox.pending(in: conversation, before: nil, limit: .max).contains(where: { $0.id == id }) {
            do {
                try outbox.delete(id)
            } catch {
                // In flight now: the backend answers it as stored, and tells this user's feed of the deletion again
                // (docs/design.md, "Deleted elsewhere"), which takes it away once more.
                logger.log(.info, "sync: \(id) was deleted elsewhere while its send was in flight")
            }
        }
        echoes.echoCame(id)
        if var row {
            var changed = false
            if row.lastMessage?.id == id {
                row.lastMessage = messageCache.messages(in: conversation).last
                changed = true
            }
            if let held, held.senderID != user, row.unreadCount > 0,
                !readMarkers.covers(held.cursor, in: conversation)
            {
                row.unreadCount -= 1
                changed = true
            }
            if changed {
                conversationCache.store([row])
                run.updates.append(.rows([row]))
            }
        }
        run.updates.append(.removed(conversation: conversation, ids: [id]))
    }

    /// `message` with the status the message cache holds for it when that went further: a message whose send's
    /// outcome was unknown may have been raised by receipts while its outbox copy waited to be resent (the cache
    /// heard of it from an earlier answer), and its echo, filed `sent`, must not take that back (seed 3376).
    private func asFarAsCached(_ message: Message) -> Message {
        guard let cached = messageCache.message(message.id, in: message.conversationID),
            !cached.status.isPending, cached.status > message.status
        else { return message }
        var raised = message
        raised.status = cached.status
        return raised
    }

    /// A message of mine from another device comes `sent`; filed before a message of mine a marker already covers
    /// (written offline there, delivered late), it is covered too — a marker covers what comes before it in compose
    /// order (docs/design.md §2.3) — and raising, which stops at the first message already raised, would never
    /// reach it. It takes the status of the newest of my messages after it.
    private func coveredAlready(_ message: Message) -> Message {
        let after = messageCache.messages(in: message.conversationID).lazy.filter {
            $0.senderID == self.user && $0.cursor > message.cursor && !$0.status.isPending
        }
        guard let status = after.map(\.status).max(), status > message.status else { return message }
        var covered = message
        covered.status = status
        return covered
    }

    /// A receipt: another participant's raises the user's messages it covers; the user's own (from another device,
    /// or this one's echoed back) clears what it covers from the unread count. `index` is its place in the batch.
    private func take(_ receipt: Receipt, at index: Int, laterEchoes: [MessageID: Int], into run: inout BatchRun) {
        let conversation = receipt.conversationID
        if receipt.userID == user {
            guard receipt.kind == .read else { return }
            readMarkers.advance(conversation, to: receipt.upTo)
            if let row = noteRead(conversation, upTo: receipt.upTo, throughFeed: true) {
                run.updates.append(.rows([row]))
            }
            run.updates.append(.readByMe(conversation: conversation, upTo: receipt.upTo))
            return
        }
        guard let upTo = coverage(of: receipt, at: index, laterEchoes: laterEchoes) else { return }
        let raised = messageCache.raisedStatuses(in: conversation, from: user, upTo: upTo, by: receipt.kind)
        messageCache.store(raised)
        if var kept = conversationCache.conversation(conversation), let last = kept.lastMessage,
            last.senderID == user, last.cursor <= upTo, last.status.raised(by: receipt.kind) != last.status
        {
            kept.lastMessage?.status = last.status.raised(by: receipt.kind)
            conversationCache.store([kept])
            run.updates.append(.rows([kept]))
        }
        run.updates.append(
            .statuses(conversation: conversation, status: receipt.kind.status, upTo: upTo, messages: raised))
    }

    /// How far another participant's receipt raises the user's messages, in compose order (as the cache and the
    /// chat hold them): up to its `upTo`, unless some of this device's messages before it in compose order reached
    /// the backend after the receipt was made — written offline before the message read, their echo comes later in
    /// this batch, or has not come at all though their send was answered. Then only up to the newest of the user's
    /// messages that reached it before: this device's messages keep their compose order at the backend (one held
    /// back goes before those composed after it, and so is covered along with them), and what came after it was
    /// not seen. Nil: it raises nothing.
    private func coverage(of receipt: Receipt, at index: Int, laterEchoes: [MessageID: Int]) -> MessageCursor? {
        let conversation = receipt.conversationID
        let isLate = { (id: MessageID) in self.echoes.awaitsEcho(id) || (laterEchoes[id] ?? -1) > index }
        let mine = messageCache.messages(in: conversation).filter {
            $0.senderID == user && $0.cursor <= receipt.upTo
        }
        let covered = mine.last { !isLate($0.id) }?.cursor
        let above = { (cursor: MessageCursor) in covered.map { cursor > $0 } ?? true }
        let lateAbove =
            mine.contains { isLate($0.id) && above($0.cursor) }
            || echoes.awaitsEcho(in: conversation) { $0 <= receipt.upTo && above($0) }
        return lateAbove ? covered : receipt.upTo
    }

    // MARK: - Starting over

    /// The cursor expired: take one consistent snapshot of what the screens show and go on from its position.
    func startOver() async throws {
        let open = watched.all
        logger.log(.info, "sync: cursor expired; starting over with \(open.count) open chat(s)")
        // A conversation whose read marker the backend may not have yet comes with its page too: its row's count is
        // then worked out from the messages after the marker, as the backend will count them.
        let chats = open + readsOnTheirWay.subtracting(open).sorted()
        var snapshot = try await feed.snapshot(
            for: user, conversationLimit: settings.snapshotConversations, chats: chats,
            messageLimit: settings.snapshotMessages)
        if Task.isCancelled { throw CancellationError() }
        // The echoes before the snapshot's position will not come; its pages carry the statuses as they are.
        echoes.snapshotTaken()
        messageCache.echoesCame(messageCache.allAwaitedEchoes())
        // The messages of a conversation the snapshot does not bring back to what the cache holds may have a hole
        // where the forgotten events were: a chat opened from the cache (offline) would show it as whole, and
        // never load it again. Such a conversation is forgotten; its next page comes from the backend.
        for conversation in messageCache.conversationIDs {
            let page = snapshot.chats[conversation]
            let joins =
                page.map { page in
                    !page.hasMore || page.messages.first.map { messageCache.contains($0.id, in: conversation) } ?? true
                } ?? false
            if !joins { messageCache.forget(conversation) }
        }
        var raised: [SyncUpdate] = []
        for (conversation, page) in snapshot.chats.sorted(by: { $0.key < $1.key }) {
            raised += raiseCached(in: conversation, asFarAs: page)
            messageCache.store(page, in: conversation)
        }
        // The snapshot is the rows' truth at its position; what this device read past the backend still counts, and
        // the message cache now holds no hole to count it over.
        snapshot.conversations.conversations = snapshot.conversations.conversations.map {
            clearingRead($0, counting: true)
        }
        conversationCache.store(snapshot.conversations.conversations)
        try cursorLog.write(.init(cursor: snapshot.position, resets: resets + 1, uncertain: durableUncertainCounts))
        observers.notify(.reset(snapshot))
        for update in raised { observers.notify(update) }
    }

    /// A snapshot's page carries the statuses its markers give, and the receipts that moved them are forgotten: my
    /// messages the cache holds before the newest of mine the page shows read (or delivered) are raised alike — a
    /// marker covers what comes before it in compose order (docs/design.md §2.3) — however far before the page
    /// they are. Answers the updates that tell the screens, after the reset.
    private func raiseCached(in conversation: ConversationID, asFarAs page: MessagePage) -> [SyncUpdate] {
        var updates: [SyncUpdate] = []
        for kind in [Receipt.Kind.read, .delivered] {
            guard
                let upTo = page.messages.last(where: {
                    $0.senderID == user && !$0.status.isPending && $0.status >= kind.status
                })?.cursor
            else { continue }
            let raised = messageCache.raisedStatuses(in: conversation, from: user, upTo: upTo, by: kind)
            guard !raised.isEmpty else { continue }
            messageCache.store(raised)
            updates.append(.statuses(conversation: conversation, status: kind.status, upTo: upTo, messages: raised))
        }
        return updates
    }
}

/// What a batch collects before it is written and told: messages in one run (one cache write), the conversations
/// they touched (written and announced as rows), the delivered receipts to write, and the updates in feed order.
struct BatchRun {
    /// Messages new to this device: cached and announced.
    var messages: [Message] = []
    /// Messages to announce, in feed order: the new ones, and held ones the list has not taken in.
    var announced: [Message] = []
    var ids: Set<MessageID> = []
    var conversations: [ConversationID: Conversation] = [:]
    var received: [ConversationID: MessageCursor] = [:]
    /// How far others' messages that arrived into a chat on screen were read as they came.
    var readOnScreen: [ConversationID: MessageCursor] = [:]
    /// Where each conversation's row stood before this batch touched it: its newest message then (none: empty).
    var lastsBefore: [ConversationID: Message?] = [:]
    var updates: [SyncUpdate] = []
    /// This device's messages whose echo came, for the message cache (`MessageCache.echoesCame(_:)`).
    var echoed: [(id: MessageID, conversation: ConversationID)] = []

    /// `message`, someone else's, arrived into its chat on screen: read as it comes (not counted unread).
    mutating func readOnScreen(_ message: Message) {
        let conversation = message.conversationID
        readOnScreen[conversation] = max(readOnScreen[conversation] ?? message.cursor, message.cursor)
    }

    /// Brings `message`'s conversation preview, activity and (when `unread`) unread count up to date, once per
    /// message newer than the conversation's newest: a replayed or older message changes nothing. Returns whether
    /// it changed the conversation.
    ///
    /// One older message still counts: someone else's that is filed after where the row stood before this batch
    /// but before a newer message this batch brought first (two people writing in the same instant, or a clock
    /// behind). No page counted it — the row stood before it — and without this the row would stay one short
    /// until the next page (simulation seed 6379).
    @MainActor
    @discardableResult
    mutating func touch(_ message: Message, unread: Bool, in engine: SyncEngine) -> Bool {
        let id = message.conversationID
        if conversations[id] == nil, lastsBefore[id] == nil {
            lastsBefore[id] = .some(engine.conversationCache.conversation(id)?.lastMessage)
        }
        guard var conversation = conversations[id] ?? engine.conversationCache.conversation(id) else { return false }
        if let last = conversation.lastMessage, last.id == message.id || !Message.composeOrder(last, message) {
            guard unread, last.id != message.id, case .some(let before) = lastsBefore[id],
                before.map({ $0.id != message.id && Message.composeOrder($0, message) }) ?? true
            else { return false }
            conversation.unreadCount += 1
            conversations[id] = conversation
            return true
        }
        conversation.lastMessage = message
        conversation.lastActivity = max(conversation.lastActivity, message.timestamp)
        if unread { conversation.unreadCount += 1 }
        conversations[id] = conversation
        return true
    }

    /// Writes the messages and conversations collected so far and queues their update.
    @MainActor
    mutating func flush(into engine: SyncEngine) {
        // The read receipts first, durably: a row that never counted these messages unread must never be on disk
        // without the receipt that tells the backend they were read (a kill between the two would leave the backend
        // counting them unread for good, and the list saying nothing).
        if !readOnScreen.isEmpty {
            updates += engine.readAsTheyCame(readOnScreen)
            readOnScreen = [:]
        }
        if !messages.isEmpty {
            engine.messageCache.store(messages, arrived: true)
            messages = []
        }
        if !echoed.isEmpty {
            engine.messageCache.echoesCame(echoed)
            echoed = []
        }
        if !announced.isEmpty {
            updates.append(.messages(announced))
            announced = []
        }
        if !conversations.isEmpty {
            let rows = conversations.keys.sorted().compactMap { conversations[$0] }
            engine.conversationCache.store(rows)
            updates.append(.rows(rows))
            conversations = [:]
        }
    }
}
