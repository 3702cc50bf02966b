import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The message lifecycle over a durable `OutboxStore`: every pending message lives in exactly one store record,
/// and each conversation sends through its own serial lane, in compose order.
///
/// How a message moves (docs/design.md §3):
/// - `compose` writes the message (synced) before returning: `sending` when online, `queued` when offline or while
///   sending is paused for sign-in; an online message starts its lane at once.
/// - At launch, messages whose send the app's death cut off (`OutboxStore.requeuedAtOpen`) go out again when
///   online, with the same id, whatever the policy: they were already on their way.
/// - A lane takes the conversation's `sending` messages in compose order, up to `batchSize` per request, and
///   sends them as one ordered batch through the repository (which applies the retry policy).
/// - Per message, the answer decides:
///   - stored by the backend → removed from the store, observers see it `sent` — at least `sent` whatever status
///     the backend echoed, decided here alone — and the message cache, when given, keeps it as they see it (one
///     write per answer);
///   - `offline` → back to `queued` (resent later with the same id), and the lane stops;
///   - `unauthorized` / `forbidden` → back to `queued`, sending pauses everywhere until `signInRenewed()`, and
///     nothing is marked failed for it;
///   - a retryable error once the repository's retry budget is spent (timeout, server error) → one attempt round
///     counted in `attempts`; with the `automatic` policy the message goes back to `queued` for another round
///     until it has had `maxAutomaticRounds`, otherwise (and with the `manual` policy at once) → `failed`;
///   - a permanent refusal (validation, not found) → `failed` at once, kept with its error;
///   - after a failure the lane goes on with later messages, so one bad message holds up nothing.
/// - A message the user sends by hand (`send(_:)`: Retry, Send Now) gets one attempt through `manualRepository`
///   (one try within the attempt timeout, no backoff chain): the user is waiting for the answer, and trying
///   again is theirs to decide. Sends the outbox starts itself keep the repository's retry budget.
/// - With the `automatic` policy, coming online starts one pass over the queue; flicker while it runs starts no
///   second pass (single flight), and a lane never runs twice for a conversation, so nothing is sent twice. The
///   pass repeats (after `roundPause` on the clock) while messages wait for another round.
/// - Ids are the idempotency key: a resend after an unknown outcome is ignored by the backend.
@MainActor
public final class DurableOutbox: MessageOutbox {
    /// Limits on what a user may compose.
    public struct Limits: Sendable {
        /// Longest text accepted, in characters.
        public var maxTextLength: Int
        /// Longest image URL or thumbnail URL accepted, in UTF-8 bytes.
        public var maxURLLength: Int
        /// Most messages sent in one ordered batch request.
        public var batchSize: Int
        /// Attempt rounds the automatic policy gives a message before it is `failed` and waits for the user.
        public var maxAutomaticRounds: Int
        /// Pause between the automatic policy's rounds.
        public var roundPause: Duration
        /// Creates limits.
        public init(
            maxTextLength: Int = 4_000, batchSize: Int = 25, maxAutomaticRounds: Int = 3,
            roundPause: Duration = .seconds(5), maxURLLength: Int = 2_048
        ) {
            self.maxTextLength = maxTextLength
            self.maxURLLength = max(1, maxURLLength)
            self.batchSize = max(1, batchSize)
            self.maxAutomaticRounds = max(1, maxAutomaticRounds)
            self.roundPause = roundPause
        }
    }

    // MARK: - Dependencies
    // Module-internal rather than private: the lanes and the automatic policy live in sibling files
    // (DurableOutbox+Lanes.swift, DurableOutbox+AutomaticPolicy.swift).

    /// What the outbox was made with (`DurableOutbox+Parts.swift` reads each by its name).
    let parts: Parts

    // MARK: - State

    /// When queued messages go out on reconnect.
    public var policy: SendPolicy {
        didSet { if policy == .automatic, oldValue != .automatic { startAutomaticPass() } }
    }
    public internal(set) var isPausedForSignIn = false
    /// How many outcomes (a delivery, a failure, a requeue, a start) the store refused to record, a full disk say.
    /// The message then stays as the store last recorded it — a `sending` one is queued again when the store
    /// reopens and resent with the same id — so a caller that reports work done checks this count first.
    public var storageFailureCount: Int { storageFailures.count }
    /// The last refusal counted by `storageFailureCount`, in words: which message, why, and where it stays.
    public var lastStorageFailure: String? { storageFailures.last }
    /// The outcomes the store refused to record (`StorageFailures`).
    private var storageFailures = StorageFailures()
    /// The lanes, the automatic pass and the awaited sends under way, and the hand-sent messages (`OutboxWork`).
    var work = OutboxWork()
    /// Set by `stop()`: the app is closing, so nothing starts another send.
    var isStopped = false
    var wasOnline: Bool
    /// The last clock reading a compose took in this process: the next takes a later one.
    var lastComposeTime: Date?
    /// Whether this outbox lacks the lease — another process holds it, or the app in the background let it go
    /// (`suspend()`) — so that it sends nothing until it takes it again.
    public var isSuspended: Bool { leaseState.isSuspended }
    /// Whether the outbox holds the lease and wants it, and what waits for it (`LeaseState`).
    var leaseState = LeaseState()
    /// Whether a Send All waits for messages that could not go yet (`DurableOutbox+SendAll`).
    public var sendAllRequested: Bool { sendAllRequest.isWaiting }
    /// Whether a Send All waits, and the requests held in this process alone (`SendAllRequest`).
    var sendAllRequest = SendAllRequest()
    let observers = ObserverList<OutboxEvent>()
    private var connectivityToken: ObservationToken?

    /// Creates the outbox. Messages the store holds are kept as they are (a store reopens `sending` as `queued`);
    /// with the automatic policy and a connection they go out at once. `manualRepository` (one attempt, no retries)
    /// carries Retry and Send Now; without one they go through `repository` too. `messageCache` keeps the messages
    /// the backend stored, as observers see them, for chats opened offline. `newestHeld` answers the timestamp
    /// of the newest message the device holds in a conversation (the client wires it to its caches), so that a
    /// message composed there is stamped after it; without one (a one-shot sender, which holds nothing) the store's
    /// durable stamp mark alone applies.
    public init(
        store: any OutboxStore, repository: any MessageRepository, manualRepository: (any MessageRepository)? = nil,
        connectivity: any ConnectivityMonitor, clock: any Clock, ids: IDGenerator, currentUser: UserID,
        policy: SendPolicy = .manual, limits: Limits = Limits(), lease: OutboxLease? = nil,
        messageCache: (any DeliveredMessageKeeper)? = nil, logger: Logger = .silent,
        newestHeld: @escaping (ConversationID) -> Date? = { _ in nil }
    ) {
        parts = Parts(
            store: store, repository: repository, manualRepository: manualRepository ?? repository,
            connectivity: connectivity, clock: clock, ids: ids, currentUser: currentUser, limits: limits, lease: lease,
            messageCache: messageCache, logger: logger, newestHeld: newestHeld)
        self.policy = policy
        wasOnline = connectivity.isOnline
        connectivityToken = connectivity.observe { [weak self] online in self?.connectivityChanged(online) }
        // Another process holding the lease is sending: this outbox waits for its turn (`takeLeaseIfFree()`).
        if let lease, (try? lease.tryTake()) != true {
            leaseState.isSuspended = true
            leaseState.cutOff = Set(store.requeuedAtOpen)
            return
        }
        resumeInterruptedSends()
        noteSendAllRequest()
        resumeRequestedSends()
        if wasOnline { startAutomaticPass() }
    }

    deinit {
        MainActor.assumeIsolated { stop() }
    }

    /// Stops every lane and the automatic pass (the app is closing) and starts no other. A send cut off is no
    /// delivery error, so it never fails its message: the outbox records nothing more (its stores may be closed
    /// next), the message stays `sending` on disk, and the store reopens it as `queued` — resent at the next launch
    /// with the same id (`OutboxStore.requeuedAtOpen`). Stopping twice is harmless.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        work.automaticPass?.cancel()
        for lane in work.lanes.values { lane.cancel() }
        lease?.release()
    }

    /// The tasks the outbox runs now (lanes and the automatic pass), for a caller that waits for them all.
    package var runningWork: [TrackedWork] {
        work.running
    }

    // MARK: - MessageOutbox

    public var pending: [Message] { store.all() }

    public func pending(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message] {
        store.pending(in: conversation, before: cursor, limit: limit)
    }

    public func pendingCount(of status: MessageStatus) -> Int { store.count(of: status) }

    public func pendingCount(in conversation: ConversationID) -> Int { store.count(in: conversation) }

    public var isBusy: Bool { work.isBusy }

    public func observe(_ observer: @escaping @MainActor (OutboxEvent) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    public func sendAll() async {
        guard !isStopped else { return }
        // The request first, durably: what cannot go now goes at the first chance, across relaunches.
        recordSendAllRequest()
        guard takeLeaseIfFree(), connectivity.isOnline, !isPausedForSignIn else { return }
        work.operations += 1
        defer {
            work.operations -= 1
            releaseLeaseIfIdle()
        }
        // Send All means every message waiting, other processes' too (a size check when there are none).
        takeInForeignChanges()
        startSending(store.all().filter { $0.status == .queued || $0.status == .failed })
        // Lanes already running (taking the lease resumes an earlier Send All; a send in flight) carry messages this
        // one covers too: it returns when every one is done.
        for conversation in Array(work.lanes.keys) { await work.lanes[conversation]?.value }
        noteSendAllRequest()
    }

    public func send(_ id: MessageID) async throws {
        guard let message = store.message(id), message.status == .queued || message.status == .failed else {
            throw InputError.unknownMessage(id)
        }
        guard connectivity.isOnline else { throw DeliveryError.offline }
        guard !isPausedForSignIn else { throw DeliveryError.unauthorized }
        guard !isStopped, takeLeaseIfFree() else { return }
        work.operations += 1
        defer {
            work.operations -= 1
            releaseLeaseIfIdle()
        }
        guard markSending(message) != nil else { return }
        work.manualAttempts.insert(id)
        startLane(message.conversationID)
        await work.lanes[message.conversationID]?.value
    }

    @discardableResult
    public func edit(_ id: MessageID, text: String) throws -> Message {
        guard let message = store.message(id), message.status == .queued || message.status == .failed else {
            throw InputError.unknownMessage(id)
        }
        // A send that ended with no answer may be stored: an edit now could be dropped by the backend unseen.
        guard !message.outcomeUnknown else { throw InputError.outcomeUnknown(id) }
        let updated = try store.updateText(of: id, to: try validated(text, captioning: message.media))
        observers.notify(.changed(updated))
        return updated
    }

    public func delete(_ id: MessageID) throws {
        guard let message = store.message(id), message.status == .queued || message.status == .failed else {
            throw InputError.unknownMessage(id)
        }
        try store.remove(id)
        observers.notify(.deleted(id))
        if sendAllRequested { noteSendAllRequest() }
    }

    /// The backend's feed echoed `message`, one of this device's: while it is still pending here (its send's answer
    /// was lost, or has not come yet) it is delivered now — removed from the store and announced as the backend
    /// stored it, exactly as when the answer arrives; whichever of the two comes second changes nothing. Returns
    /// whether it was pending.
    @discardableResult
    public func confirmStored(_ message: Message) -> Bool {
        guard let pending = store.message(message.id), message.senderID == currentUser else { return false }
        work.manualAttempts.remove(message.id)
        let shown = shown(pending, storedAs: message)
        messageCache?.keepDelivered([shown])
        return delivered(pending, shown: shown)
    }

    public func signInRenewed() {
        work.signInRenewals += 1
        if isPausedForSignIn {
            isPausedForSignIn = false
            observers.notify(.pausedForSignIn(false))
        }
        // Messages held back by the expired sign-in (their last error says so, durably — a restart in between
        // changes nothing) were already on their way: they go out now. Messages queued offline wait for the policy.
        guard connectivity.isOnline else { return }
        startSending(store.all().filter { $0.status == .queued && $0.lastError?.requiresSignIn == true })
        resumeRequestedSends()
        startAutomaticPass()
    }

    /// Counts an outcome the store refused to record.
    func storageFailed(_ message: Message, _ what: String, _ error: any Error, staysAs where: String) {
        logger.log(.error, "outbox: \(what) \(message.id) could not be recorded: \(error)")
        storageFailures.record(message, what, error, staysAs: `where`)
    }
}
