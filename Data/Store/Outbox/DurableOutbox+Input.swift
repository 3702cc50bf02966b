import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DurableOutbox {
    // MARK: - Composing

    @discardableResult
    public func compose(text: String, in conversation: ConversationID) throws -> Message {
        try compose(text: text, media: nil, in: conversation)
    }

    @discardableResult
    public func compose(text: String, media: MediaAttachment?, in conversation: ConversationID) throws -> Message {
        let media = try validated(media)
        let text = try validated(text, captioning: media)
        let now = nextComposeTime()
        // The compose stamp, the order key (docs/design.md §2.3): after the newest message the device holds here, so
        // a reply comes after what it answers; the store raises it past the conversation's durable mark.
        let stamp = Message.composeStamp(now: now, after: newestHeld(conversation))
        let online = connectivity.isOnline && !isPausedForSignIn && !isStopped
        // Online but another process holds the lease: queued, and sent as soon as the lease is free.
        let sendNow = online && takeLeaseIfFree()
        // Composed online while sign-in is expired: on its way, held by the sign-in (durably: its last error says
        // so), and sent once sign-in is renewed.
        let held = connectivity.isOnline && isPausedForSignIn
        let message = Message(
            id: ids.next(), conversationID: conversation, senderID: currentUser, text: text, timestamp: stamp,
            status: sendNow ? .sending : .queued, statusUpdatedAt: now, lastError: held ? .unauthorized : nil,
            media: media)
        // The store raises the stamp past the conversation's durable mark as it stores it, under its lock: an earlier
        // launch, or another process meanwhile, may have stamped later than this clock reads.
        let stored = try store.enqueueComposed(message)
        observers.notify(.changed(stored))
        if sendNow { startLane(conversation) } else if online { leaseState.cutOff.insert(stored.id) }
        return stored
    }

    /// Takes in what other processes (an app extension's one-shot send) changed in a shared outbox: each message
    /// they added or changed is announced as `changed`, each they removed as `deleted`, so the open chat, the
    /// Offline Queue and the banner show them; a message they queued goes out by the usual policy. Returns what
    /// changed. A store no other process writes has nothing to take in.
    @discardableResult
    public func takeInForeignChanges() -> OutboxForeignChanges {
        // The lease may have come free (an extension that held it is done): taking it takes the changes in too.
        if isSuspended, let changes = takeLease(toSend: false) { return changes }
        return absorbForeignChanges()
    }

    /// `takeInForeignChanges()` without looking at the lease.
    package func absorbForeignChanges() -> OutboxForeignChanges {
        let changes: OutboxForeignChanges
        do { changes = try store.refresh() } catch {
            logger.log(.warning, "outbox: cannot read what other processes wrote: \(error)")
            return OutboxForeignChanges()
        }
        guard !changes.isEmpty else { return changes }
        for id in changes.removed { observers.notify(.deleted(id)) }
        for message in changes.changed { observers.notify(.changed(message)) }
        sendComposedBeside(changes.changed)
        if changes.changed.contains(where: \.sendRequested) {
            noteSendAllRequest()
            resumeRequestedSends()
        }
        if !isStopped, policy == .automatic, connectivity.isOnline { startAutomaticPass() }
        return changes
    }

    /// Messages another process composed beside this one (a notification reply, a share sheet: never tried yet)
    /// found while this app is online go now, as one composed here online does, whatever the policy: a message
    /// composed online is sent online.
    private func sendComposedBeside(_ changed: [Message]) {
        guard !isStopped, connectivity.isOnline, !isPausedForSignIn else { return }
        let fresh = changed.filter { $0.status == .queued && $0.attempts == 0 && $0.lastError == nil }
        guard !fresh.isEmpty, takeLeaseIfFree() else { return }
        startSending(fresh)
    }

    // MARK: - Discarding a conversation

    /// Removes every queued and failed message of `conversation` in one durable change (a conversation deleted
    /// from the list takes them with it) and announces each as `deleted`; returns their ids, in compose order. A
    /// message already `sending` is on the network and cannot be called back: it goes on.
    @discardableResult
    public func discardPending(in conversation: ConversationID) throws -> [MessageID] {
        let doomed = store.pending(in: conversation, before: nil, limit: .max)
            .filter { $0.status == .queued || $0.status == .failed }.map(\.id)
        guard !doomed.isEmpty else { return [] }
        try store.remove(doomed)
        for id in doomed {
            work.manualAttempts.remove(id)
            observers.notify(.deleted(id))
        }
        if sendAllRequested { noteSendAllRequest() }
        return doomed
    }

    // MARK: - Input

    /// The clock's reading for a message composed now, which its compose stamp starts from
    /// (`Message.composeStamp`). Order is timestamp, then id (`Message.composeOrder`, docs/design.md §2.3), and ids
    /// are random, so the readings a process takes strictly increase: messages typed within one clock tick keep the
    /// order they were typed in, across conversations too (the Offline Queue lists them all in compose order).
    package func nextComposeTime() -> Date {
        let floor = lastComposeTime ?? store.all().last?.timestamp ?? .distantPast
        let now = max(clock.now, floor.addingTimeInterval(0.001))
        lastComposeTime = now
        return now
    }

    /// The text rule, applied here alone (docs/design.md §3): white space at both ends goes, and what is left must
    /// be neither empty nor longer than the limit. Screens pass the typed text as it is. The caption of an image
    /// (`media` given) may be empty: the image is the message.
    package func validated(_ text: String, captioning media: MediaAttachment?) throws -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty || media != nil else { throw InputError.emptyText }
        guard trimmed.count <= limits.maxTextLength else {
            throw InputError.textTooLong(characters: trimmed.count, limit: limits.maxTextLength)
        }
        return trimmed
    }

    /// An attachment's URLs, trimmed: the full-size URL must be there, a blank thumbnail URL counts as none, and
    /// neither may pass `Limits.maxURLLength` (the outbox record must stay small, docs/storage-format.md §3.1).
    package func validated(_ media: MediaAttachment?) throws -> MediaAttachment? {
        guard let media else { return nil }
        let url = media.url.trimmingWhitespace()
        let thumbnail = media.thumbnailURL?.trimmingWhitespace()
        guard !url.isEmpty else { throw InputError.invalidImage("the image has no URL") }
        for candidate in [url, thumbnail ?? ""] where candidate.utf8.count > limits.maxURLLength {
            throw InputError.invalidImage("a URL is longer than \(limits.maxURLLength) bytes")
        }
        return MediaAttachment(url: url, thumbnailURL: thumbnail?.isEmpty == false ? thumbnail : nil)
    }
}
