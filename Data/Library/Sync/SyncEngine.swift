import CourierDomain
import CourierStore
import Foundation

/// The receive side: the one owner of the feed cursor, which catches up and then listens, and applies what others
/// (and the user's other devices) do to the caches, the outbox and the screens (docs/reliability.md, "The feed").
///
/// - **When it runs.** On launch, on reconnect and on return to the foreground it first catches up — asks for the
///   events after its cursor, without waiting, until none are left — and only then goes live: the same loop asks
///   again with a long poll (`SyncSettings.liveWait`) that the backend answers as soon as something happens. One
///   loop, one request at a time, so events that happen during the catch-up simply come in a later batch, in
///   order. Offline, in the background, while sign-in is expired or after `stop()` it holds no connection.
/// - **A fresh device** starts its cursor at the feed's end: the screens load their own pages.
/// - **Applying.** Each batch is applied to the message cache (readable offline), the conversation cache (preview,
///   order, unread) and the outbox (an echo of a pending message of this device confirms it `sent`), and only then
///   is the cursor written. A kill in between replays the batch, and a replay changes nothing: an event at or
///   below the cursor is skipped, a message already held is not new, unread counts only a message newer than the
///   conversation's newest, statuses only rise.
/// - **Receipts.** Messages of others that arrive are acknowledged `delivered`, and `markRead` acknowledges `read`,
///   through a durable write queue: offline they wait, coalesced to the newest per conversation and kind; the
///   backend keeps the higher marker. A batch queues its receipts in one append; during a catch-up they are sent
///   when it reaches the end, one per conversation, not after every batch. Receipts from others raise the user's
///   messages `sent → delivered → read` — those the backend stored before the receipt was made, and this device's
///   messages filed before them: a message whose send was answered but whose echo is still ahead in the feed
///   reached the backend after it (`coverage(of:at:laterEchoes:)`).
/// - **Expired cursor.** The backend forgot events after the cursor: the engine fetches one `FeedSnapshot` (the
///   list's first page, the watched chats' newest pages and the position they are true at), keeps it in the caches,
///   hands it to screens to merge (`SyncUpdate.reset`), counts one reset, and goes on from there. The cached messages
///   of a conversation its pages do not join up with are forgotten: they may have a hole where the forgotten events
///   were, and a chat opened from the cache would show it as whole. The outbox is not touched.
/// - **Failures.** A retryable error waits (1 s doubling up to `maxBackoff`, on the clock, never less than a
///   `rateLimited` answer's `retryAfter`) and asks again; offline ends the loop until the device is back;
///   unauthorized pauses it until `signInRenewed()`.
@MainActor
public final class SyncEngine: LiveSync {
    /// The write-queue kind of receipts.
    public static let receiptKind = "receipt"

    // MARK: - Dependencies

    /// What the engine was made with (`SyncEngine+Parts.swift` reads each by its name).
    let parts: Parts
    let user: UserID
    let cursorLog: SyncCursorLog
    let observers = ObserverList<SyncUpdate>()
    let watched = WatchedConversations()
    private var tokens: [ObservationToken] = []
    private var connectivityToken: ObservationToken?

    // MARK: - State

    /// The last event applied (nil until the first launch online has asked where the feed ends).
    public var cursor: FeedPosition? { cursorLog.state.cursor }
    /// Times the cursor was too old and the device started over.
    public var resets: Int { cursorLog.state.resets }
    /// Whether a live request is open: caught up and listening.
    public var isLive: Bool { lifecycle.isLive }
    /// Whether the loop is catching up (it has not yet seen the end of the feed since it started).
    public var isCatchingUp: Bool { lifecycle.isCatchingUp }
    /// Requests that failed in a row (0 once one succeeds).
    public var consecutiveFailures: Int { lifecycle.consecutiveFailures }
    /// Whether the app is in the foreground.
    public var isInForeground: Bool { lifecycle.isInForeground }
    /// Whether the feed refused the sign-in; `signInRenewed()` resumes.
    public var isPausedForSignIn: Bool { lifecycle.isPausedForSignIn }
    /// How many times `signInRenewed()` was called: a screen's request refused for an older sign-in asks again.
    public var signInRenewals: Int { lifecycle.signInRenewals }
    /// Events applied since the engine was made (replays skipped not counted).
    public internal(set) var appliedEvents = 0
    /// Whether the catch-up-then-listen loop runs (online, in the foreground, signed in).
    public var isRunning: Bool { lifecycle.isRunning }
    /// Whether the loop runs and where it stands, the app's foreground, and the loop's failures and sign-in renewals
    /// (`SyncLifecycle`).
    private var lifecycle = SyncLifecycle()
    /// Delivers the receipts `receipts` holds (`ReceiptSender`); made in `init`, once `self` can be captured.
    private var receiptSender: ReceiptSender!
    /// The newest read marker per conversation this device made (`ReadMarkers`).
    var readMarkers: ReadMarkers
    /// This device's messages between their send's answer and their echo (`EchoLedger`).
    var echoes: EchoLedger
    /// Conversations whose cached unread count may be short: a message of someone else arrived that the row took as
    /// counted already (`reconcile(_:requestedAt:)` takes the next page's count for them). Kept with the cursor: the
    /// feed that left a count short will not bring its message again after a relaunch (seed 83930).
    var uncertainCounts: Set<ConversationID>
    /// `uncertainCounts` as the cursor log keeps them: sorted, nil when there are none.
    var durableUncertainCounts: [ConversationID]? { uncertainCounts.isEmpty ? nil : uncertainCounts.sorted() }

    // MARK: - Init

    /// Creates the engine; `start()` begins. Receipts are delivered through `receipts`, whose executor for
    /// `receiptKind` this registers. Throws what opening `cursorStorage` throws.
    public init(
        feed: any EventFeed, user: UserID, cursorStorage: any RecordStorage, messageCache: MessageCache,
        conversationCache: ConversationCache, outbox: any MessageOutbox, receipts: OfflineWriteQueue,
        connectivity: any ConnectivityMonitor, clock: any Clock, settings: SyncSettings = SyncSettings(),
        logger: Logger = .silent
    ) throws {
        cursorLog = try SyncCursorLog(storage: cursorStorage, logger: logger)
        uncertainCounts = Set(cursorLog.state.uncertain ?? [])
        parts = Parts(
            feed: feed, messageCache: messageCache, conversationCache: conversationCache, outbox: outbox,
            receipts: receipts, connectivity: connectivity, clock: clock, settings: settings, logger: logger)
        self.user = user
        receipts.register(kind: Self.receiptKind) { write in
            try await feed.mark(try write.decodePayload(Receipt.self))
        }
        echoes = EchoLedger(pendingAtLaunch: Set(outbox.pending.map(\.id)))
        readMarkers = ReadMarkers(
            queued: receipts.allWrites.lazy.filter { $0.kind == Self.receiptKind }.compactMap {
                try? $0.decodePayload(Receipt.self)
            })
        tokens.append(
            outbox.observe { [weak self] event in
                guard case .changed(let message) = event, let self, message.senderID == self.user,
                    !message.status.isPending
                else { return }
                self.delivered(message)
            })
        tokens.append(
            receipts.observe { [weak self] event in
                switch event {
                case .delivered(let write), .rejected(let write, _), .abandoned(let write, _), .expired(let write):
                    guard write.kind == Self.receiptKind, let receipt = try? write.decodePayload(Receipt.self),
                        receipt.kind == .read
                    else { return }
                    self?.readMarkers.settled(receipt.conversationID)
                default: return
                }
            })
        receiptSender = ReceiptSender(queue: receipts, clock: clock) { [weak self] in
            guard let self else { return false }
            return self.connectivity.isOnline && !self.lifecycle.isStopped
        }
    }

    isolated deinit { stop() }

    /// Starts following connectivity: catches up and goes live whenever the device is online in the foreground.
    public func start() {
        guard connectivityToken == nil, !lifecycle.isStopped else { return }
        connectivityToken = connectivity.observe { [weak self] online in self?.connectivityChanged(online) }
    }

    /// Stops listening for good (the client is closing); an applied batch stays applied.
    public func stop() {
        guard !lifecycle.isStopped else { return }
        tokens.removeAll()
        connectivityToken = nil
        moveEndingLoop { $0.stop() }
    }

    // MARK: - Lifecycle

    /// The app went to the background: the live connection closes and nothing is asked until it returns.
    public func enterBackground() {
        moveEndingLoop { $0.enterBackground() }
    }

    /// The app is back in the foreground: catch up, then listen.
    public func enterForeground() {
        guard lifecycle.enterForeground() else { return }
        startLoop()
    }

    /// Sign-in was renewed: catch up and listen again, and deliver the receipts that wait (the receipts queue's own
    /// pause is lifted by its `signInRenewed()`, first). A request sent before the renewal that is answered
    /// unauthorized afterwards asks again instead of pausing.
    public func signInRenewed() {
        let wasPaused = lifecycle.signInRenewed()
        deliverReceipts()
        guard wasPaused else {
            // Still listening: a screen whose load the expired sign-in refused waits for the feed to go live, which
            // it already is, so it hears so again and asks now.
            if lifecycle.isLive { observers.notify(.live(true)) }
            return
        }
        startLoop()
    }

    // MARK: - LiveSync

    public func observe(_ observer: @escaping @MainActor (SyncUpdate) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    public func watch(_ conversation: ConversationID) -> ObservationToken { watched.watch(conversation) }

    public func isWatched(_ conversation: ConversationID) -> Bool { watched.contains(conversation) }

    public func markRead(_ conversation: ConversationID, upTo message: MessageCursor) {
        guard readMarkers.advance(conversation, to: message) else { return }
        // The receipt is queued (durably) before the row forgets its unread count: a kill between the two must not
        // leave a row that says "read" with no receipt on its way, which the backend would never hear of.
        queueReceipts([Receipt(conversationID: conversation, userID: user, kind: .read, upTo: message)])
        let row = noteRead(conversation, upTo: message)
        if let row { observers.notify(.rows([row])) }
        observers.notify(.readByMe(conversation: conversation, upTo: message))
    }

    public func readMarker(for conversation: ConversationID) -> MessageCursor? { readMarkers[conversation] }

    public var readsSettled: Int { readMarkers.settledCount }

    /// Others' messages that arrived into chats on screen were read as they came, up to `upTo` in each: the read
    /// markers move and their receipts are queued durably (delivered when the batch is done). Returns the updates
    /// that say so.
    func readAsTheyCame(_ upTo: [ConversationID: MessageCursor]) -> [SyncUpdate] {
        var receipts: [Receipt] = []
        for (conversation, cursor) in upTo.sorted(by: { $0.key < $1.key }) {
            guard readMarkers.advance(conversation, to: cursor) else { continue }
            receipts.append(Receipt(conversationID: conversation, userID: user, kind: .read, upTo: cursor))
        }
        queueReceipts(receipts, deliver: false)
        return receipts.map { .readByMe(conversation: $0.conversationID, upTo: $0.upTo) }
    }

    /// This device's message reached the backend (the outbox says so: the send's answer, or the feed's echo):
    /// screens heard of it from the outbox, and unless it was pending at launch it waits for its echo
    /// (`EchoLedger.answered(_:)`).
    ///
    /// A held-back message arrives `delivered` or `read` when the backend files it before messages a marker
    /// covers: the marker covers everything the user wrote before it as well. The receipt that says so may not
    /// have come through the feed yet, and raising stops at the first message already raised — this one — so
    /// the messages before it are raised now.
    private func delivered(_ message: Message) {
        let conversation = message.conversationID
        echoes.answered(message)
        guard message.status > .sent,
            let before = messageCache.messages(in: conversation).last(where: {
                $0.senderID == user && $0.cursor < message.cursor
            })
        else { return }
        let kind: Receipt.Kind = message.status == .read ? .read : .delivered
        let raised = messageCache.raisedStatuses(in: conversation, from: user, upTo: before.cursor, by: kind)
        messageCache.store(raised)
        observers.notify(
            .statuses(conversation: conversation, status: kind.status, upTo: before.cursor, messages: raised))
    }

    // MARK: - Receipts

    /// Queues `receipts` durably in one append, each replacing a queued one of the same conversation and kind and
    /// naming the backend's id of the message it marks up to when the cache holds it (`Receipt.upToServerID`), and
    /// (with `deliver`) delivers when online.
    func queueReceipts(_ receipts: [Receipt], deliver: Bool = true) {
        guard !receipts.isEmpty else { return }
        // Each names the backend's own id for the message it marks up to, where the cache holds one.
        let receipts = receipts.map { receipt in
            var named = receipt
            named.upToServerID =
                receipt.upToServerID ?? messageCache.message(receipt.upTo.id, in: receipt.conversationID)?.serverID
            return named
        }
        do {
            try self.receipts.enqueue(
                kind: Self.receiptKind,
                writes: receipts.map { (key: "\($0.kind.rawValue).\($0.conversationID.rawValue)", payload: $0) })
        } catch {
            let kinds = Set(receipts.map(\.kind.rawValue)).sorted().joined(separator: "/")
            logger.log(.warning, "sync: could not queue \(receipts.count) \(kinds) receipt(s) (\(error))")
            return
        }
        receiptSender.noteAppend()
        if deliver { deliverReceipts() }
    }

    /// Starts delivering the queued receipts when online, unless a delivery runs (`ReceiptSender`).
    func deliverReceipts() { receiptSender.deliver() }

    /// Whether receipts are being delivered now and no attempt of this delivery has failed: a failing delivery
    /// retries in the background, and nothing waits for it.
    public var isDeliveringReceipts: Bool { receiptSender.isDelivering }

    /// The receipt delivery under way, for a caller that waits for the client's work.
    var receiptWork: TrackedWork? { receiptSender.work }

    // MARK: - The loop

    /// Starts the loop when it may (`SyncLifecycle.start(online:_:)`): it catches up, then listens.
    func startLoop() {
        let clock = clock
        lifecycle.start(online: connectivity.isOnline) { generation in
            clock.task { [weak self] in
                await self?.run(generation)
                // A loop cancelled and replaced meanwhile (offline, then online again) leaves its successor alone.
                self?.move { $0.loopEnded(generation) }
            }
        }
    }

    /// Moves the lifecycle by `change`, which may end the loop: cancels the loop task it hands back, and then tells
    /// the screens when the live request opened or closed.
    func moveEndingLoop(_ change: (inout SyncLifecycle) -> TrackedTask<Void>?) {
        let wasLive = lifecycle.isLive
        change(&lifecycle)?.cancel()
        if lifecycle.isLive != wasLive { observers.notify(.live(lifecycle.isLive)) }
    }

    /// Moves the lifecycle by `change`, and tells the screens when the live request opened or closed.
    private func move(_ change: (inout SyncLifecycle) -> Void) {
        moveEndingLoop { lifecycle in
            change(&lifecycle)
            return nil
        }
    }

    private func run(_ generation: Int) async {
        while !Task.isCancelled, lifecycle.isCurrent(generation), connectivity.isOnline {
            let renewals = lifecycle.signInRenewals
            do {
                try await step()
                lifecycle.succeeded()
            } catch {
                if Task.isCancelled || error is CancellationError || error as? DeliveryError == .cancelled { return }
                let failure = (error as? DeliveryError) ?? .unknown(String(describing: error))
                if failure == .offline { return }
                move { $0.requestFailed() }
                if failure.requiresSignIn {
                    // Sent before a renewal that has happened since: ask again, with the sign-in renewed.
                    if lifecycle.signInRenewals != renewals { continue }
                    lifecycle.pauseForSignIn()
                    return
                }
                lifecycle.willRetry()
                logger.log(.info, "sync: request failed (\(failure)); retrying")
                do { try await clock.sleep(for: max(backoff(), failure.retryAfter ?? .zero)) } catch { return }
            }
        }
    }

    /// One request and what its answer does.
    private func step() async throws {
        guard let cursor else {
            let end = try await feed.feedEnd(for: user)
            try checkNotCancelled()
            try cursorLog.write(.init(cursor: end, resets: resets, uncertain: durableUncertainCounts))
            return
        }
        let live = !isCatchingUp
        if live { move { $0.listen() } }
        let asked = clock.now
        let answer = try await feed.events(
            for: user, after: cursor, limit: settings.batchLimit, wait: live ? settings.liveWait : .zero)
        try checkNotCancelled()
        switch answer {
        case .expired:
            try await startOver()
        case .batch(let batch) where batch.end.precedes(cursor) == true:
            // The feed went back (a backend that lost its data answers with an earlier position, not "expired"):
            // what this device holds may be ahead of what it keeps, so it starts over as from an expired cursor.
            logger.log(.warning, "sync: the feed answered a position before the cursor; starting over")
            try await startOver()
        case .batch(let batch):
            try apply(batch)
            if !batch.gaps.isEmpty { try await fillGaps(batch.gaps) }
            // A batch cut at its limit: the rest is asked for at once, not held.
            move { $0.batchApplied(hasMore: batch.hasMore) }
            // A feed that answers a long poll at once with nothing (it does not hold) is asked again after a pause,
            // never in a tight loop.
            if live, batch.events.isEmpty {
                try await clock.sleep(until: asked.addingTimeInterval(settings.minimumPollInterval.timeInterval))
            }
        }
    }

    /// Conversations the backend cut short: what the cache holds of them may have a hole, so it is forgotten (their
    /// next page comes from the backend); an open chat among them starts over with a snapshot, so its screen merges
    /// the newest page instead of showing the hole.
    private func fillGaps(_ gaps: [ConversationID]) async throws {
        logger.log(.info, "sync: the feed cut \(gaps.count) conversation(s) short")
        let open = Set(watched.all)
        for conversation in gaps where !open.contains(conversation) { messageCache.forget(conversation) }
        if gaps.contains(where: open.contains) { try await startOver() }
    }

    private func checkNotCancelled() throws {
        if Task.isCancelled || lifecycle.isStopped || !isInForeground { throw CancellationError() }
    }

    private func backoff() -> Duration {
        let seconds = min(settings.maxBackoff.timeInterval, pow(2, Double(min(consecutiveFailures, 16) - 1)))
        return .milliseconds(Int64(seconds * 1_000))
    }
}
