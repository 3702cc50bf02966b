import CourierDomain
import CourierStore
import Foundation

/// The data side of an app, in one guarded object: the entry point an app adopts (docs/architecture.md).
///
/// Given a directory and the app's own repositories, connectivity, clock and id source, it owns
/// - the directory's lock (`DataDirectoryLock`): a second client on the same directory, in this process or another,
///   is refused with `StoreError.locked(path:)`;
/// - the stores in it: the outbox (`outbox.log`), the message cache (`messages.log`), the conversation cache
///   (`conversations.log`), the write queue's journal (`writes.log`) and the names and presence seen
///   (`users.log`);
/// - the repository stack (cache → retry policy → the app's repository), the `DurableOutbox`, the `UserCache` and
///   the `OfflineWriteQueue`, which syncs by itself whenever the device comes online.
///
/// It starts them when created and closes them in order with `close()` (closing twice is harmless). Work is
/// awaited, never polled: `await sendAll()` returns when the pass is over, `await idle()` when everything the
/// client started is done. View models are made from it in a line each: it is a `MessagingSession`.
///
/// Its public surface is what an app needs: the session's parts a screen reads (`outbox`, `messages`,
/// `conversations`, `users`, `connectivity`, `sync`, …), the write queue for the app's own writes (`writes`), what
/// opening repaired (`recoveries`), and the app's moments (`sendAll()`, `idle()`, `enterBackground()`,
/// `enterForeground()`, `deleteConversation(_:)`, `close()`, `signOutErasingLocalData()`). The stores under them,
/// the sync engine and the reachability tracker are the package's own (`package`): the composition and the tests
/// read them, an app reads what they do through the parts above.
@MainActor
public final class CourierClient: MessagingSession {
    /// The directory the client owns.
    public let directory: URL
    /// The signed-in user.
    public let currentUser: UserID
    /// The clock every task of the client runs on.
    public let clock: any Clock
    /// Where the client and its view models report what they do.
    public let logger: Logger
    /// What the client runs (`CourierClient+Parts.swift` names each: `outbox`, `messages`, `syncEngine`, …).
    let parts: Parts
    /// What the client holds open in its directory, and closes in order (`CourierClient.Files`).
    let files: Files
    /// Whether `close()` was called.
    public private(set) var isClosed = false
    /// What opening each store had to skip, cut or replace, by file name (`outbox.log`, `messages.log`,
    /// `conversations.log`, `writes.log`, then with a feed `sync.log` and `receipts.log`, then `users.log`), in that
    /// order.
    public let recoveries: [(file: String, report: RecoveryReport)]

    private var running: [Int: TrackedTask<Void>] = [:]
    private var nextWork = 0
    private var tokens: [ObservationToken] = []

    /// Opens (creating when missing) `directory` and starts the client in it.
    ///
    /// - Parameters:
    ///   - directory: the folder the client owns (Application Support in an app); created when missing, locked for
    ///     as long as the client is open, and claimed for `currentUser`.
    ///   - currentUser: the signed-in user: the sender of what is composed, the owner of the directory.
    ///   - messages: the app's message repository (its backend), under the message cache and the retry policy.
    ///     Every request through it, as through `conversations` and `users`, tells `reachability` whether the
    ///     backend could be reached.
    ///   - conversations: the app's conversation repository, under the conversation cache.
    ///   - users: the app's user repository, asked by the `UserCache` for the names and presence it lacks.
    ///   - connectivity: the device's path (the platform's monitor); the client's own `connectivity` adds the
    ///     backend's reachability to it.
    ///   - clock: what every wait, timeout and task of the client runs on (`SystemClock()` in an app).
    ///   - ids: where message and write ids come from (`.random` in an app).
    ///   - policy: whether queued messages wait for the user's Send All after a reconnect (`.manual`) or go by
    ///     themselves (`.automatic`).
    ///   - random: the generator for backoff jitter (seeded in tests and scripts, so runs replay).
    ///   - writeExecutors: what each kind of queued write does online, by kind.
    ///   - feed: the backend's event feed; with one, the client listens (`syncEngine`), keeping its cursor in
    ///     `sync.log` and its unsent receipts in `receipts.log`.
    ///   - syncSettings: how the sync engine listens and catches up (events per request, the long poll's hold,
    ///     backoff, a start-over's snapshot); used only with a `feed`.
    ///   - probeRandom: the jitter of the reachability probe (seeded in tests and scripts; the system's random
    ///     source when nil).
    ///   - fileSystem: the disk (a `SimulatedFileSystem` in crash tests).
    ///   - logger: where the client and its stores report what they repaired, skipped or gave up on.
    /// - Throws: `StoreError.locked(path:)` when another owner holds the directory,
    ///   `StoreError.ownedByAnotherUser` when another user signed in there first (`ClientDirectory`), `StoreError`
    ///   when a store cannot be opened; whatever was opened is released again.
    public init(
        directory: URL, currentUser: UserID, messages: any MessageRepository,
        conversations: any ConversationRepository, users: any UserRepository, connectivity: any ConnectivityMonitor,
        clock: any Clock, ids: IDGenerator, policy: SendPolicy = .manual, random: LockedRandom = LockedRandom(seed: 1),
        writeExecutors: [String: OfflineWriteQueue.Executor] = [:], feed: (any EventFeed)? = nil,
        syncSettings: SyncSettings = SyncSettings(), probeRandom: LockedRandom? = nil,
        fileSystem: any FileSystem = PosixFileSystem(),
        logger: Logger = .silent
    ) throws {
        // The lock first: nothing in the directory is opened by a second owner.
        let lock = try DataDirectoryLock.acquire(directory: directory, fileSystem: fileSystem)
        // A sign-out's erase a killed process began is finished before anything is read; then the directory is
        // its owner's alone.
        if ClientDirectory.isErasing(directory, fileSystem: fileSystem) {
            logger.log(.warning, "client: finishing the erase of a signed-out user's data an earlier launch began")
            try ClientDirectory.erase(directory, fileSystem: fileSystem)
        }
        try ClientDirectory.claim(directory, for: currentUser, fileSystem: fileSystem)
        // Online means a path and a backend that answers: every request reports what it learned.
        // Probes are jittered from the system's random source unless a seeded run gives its own generator, so that
        // clients of one outage do not probe in step.
        let reachability = BackendReachability(
            clock: clock, random: probeRandom ?? LockedRandom(seed: UInt64.random(in: .min ... .max)))
        let pathMonitor = connectivity
        let connectivity = CombinedConnectivity(path: pathMonitor, reachability: reachability)
        let appMessages = messages
        let messages = ReachabilityTracking(wrapping: appMessages, reachability: reachability)
        let appConversations = conversations
        let conversations = ReachabilityTracking(wrapping: appConversations, reachability: reachability)
        let users = ReachabilityTracking(wrapping: users, reachability: reachability)
        let appFeed = feed
        let feed = feed.map { ReachabilityTracking(wrapping: $0, reachability: reachability) }
        // A probe asks the cheapest question the backend answers: where the feed ends, or one conversation.
        let user = currentUser
        if let appFeed {
            reachability.setProbe { _ = try await appFeed.feedEnd(for: user) }
        } else {
            reachability.setProbe { _ = try await appConversations.conversations(of: user, after: nil, limit: 1) }
        }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let store = try FileOutboxStore(directory: directory, fileSystem: fileSystem, logger: logger, access: .owner)
        let messageLog = try RecordLogStorage(path: path("messages.log"), fileSystem: fileSystem, logger: logger)
        let conversationLog = try RecordLogStorage(
            path: path("conversations.log"), fileSystem: fileSystem, logger: logger)
        let writeLog = try RecordLogStorage(path: path("writes.log"), fileSystem: fileSystem, logger: logger)
        let messageCache = try MessageCache(storage: messageLog, logger: logger)
        let conversationCache = try ConversationCache(storage: conversationLog, logger: logger)
        // The app's own writes (a profile change) stay queued across any number of failed attempts, as the write
        // queue's document says — retried at each sync until delivered, refused by the backend (rolled back,
        // visibly) or stale after 7 days; never dropped after a count of server errors.
        let writes = try OfflineWriteQueue(
            storage: writeLog, clock: clock, connectivity: connectivity,
            configuration: WriteQueueConfiguration(maxAttempts: nil), executors: writeExecutors, ids: ids,
            random: random, logger: logger)
        let retrying = RetryingMessageRepository(
            base: messages, clock: clock, random: random, connectivity: connectivity)
        // Retry and Send Now: one attempt within the timeout — the backoff chain is for the outbox's own sends.
        let once = RetryingMessageRepository(
            base: messages, policy: RetryPolicy(maxRetries: 0), clock: clock, random: random,
            connectivity: connectivity)
        let cachedMessages = CachingMessageRepository(wrapping: retrying, cache: messageCache)
        let outbox = DurableOutbox(
            store: store, repository: cachedMessages,
            manualRepository: CachingMessageRepository(wrapping: once, cache: messageCache),
            connectivity: connectivity, clock: clock, ids: ids, currentUser: currentUser, policy: policy,
            lease: OutboxLease(path: path("outbox.lease"), fileSystem: fileSystem), messageCache: messageCache,
            logger: logger,
            // A message composed here is stamped after the newest the device holds of the conversation, among its
            // cached messages and the list's preview of it (docs/design.md §2.3).
            newestHeld: { conversation in
                let preview = conversationCache.conversation(conversation)?.lastMessage?.timestamp
                return [messageCache.newestTimestamp(in: conversation), preview].compactMap { $0 }.max()
            })
        let cachedConversations = CachingConversationRepository(wrapping: conversations, cache: conversationCache)
        let syncEngine: SyncEngine?
        var syncLogs: [RecordLogStorage] = []
        if let feed {
            let cursorLog = try RecordLogStorage(path: path("sync.log"), fileSystem: fileSystem, logger: logger)
            let receiptLog = try RecordLogStorage(path: path("receipts.log"), fileSystem: fileSystem, logger: logger)
            syncLogs = [cursorLog, receiptLog]
            // Receipts are idempotent markers: their write ids need no seed, and drawing them from the message id
            // source would shift every later message id of a replayed run. Sending one again is always harmless and
            // the backend refuses a bad one (rejected at once), so a receipt is never abandoned after so many failed
            // attempts: an outage would lose the read for good, the conversation unread on every other device.
            let receipts = try OfflineWriteQueue(
                storage: receiptLog, clock: clock, connectivity: connectivity,
                configuration: WriteQueueConfiguration(maxAttempts: nil), ids: .random, logger: logger)
            syncEngine = try SyncEngine(
                feed: feed, user: currentUser, cursorStorage: cursorLog, messageCache: messageCache,
                conversationCache: conversationCache, outbox: outbox, receipts: receipts,
                connectivity: connectivity, clock: clock, settings: syncSettings, logger: logger)
        } else {
            syncEngine = nil
        }
        let userLog = try RecordLogStorage(path: path("users.log"), fileSystem: fileSystem, logger: logger)
        parts = Parts(
            connectivity: connectivity, reachability: reachability, messages: cachedMessages,
            conversations: cachedConversations,
            users: UserCache(repository: users, clock: clock, storage: userLog, logger: logger), writes: writes,
            outbox: outbox, syncEngine: syncEngine)
        files = Files(
            lock: lock, fileSystem: fileSystem, store: store, messageCache: messageCache,
            conversationCache: conversationCache, messageLog: messageLog, conversationLog: conversationLog,
            writeLog: writeLog, syncLogs: syncLogs, userLog: userLog)
        self.directory = directory
        self.currentUser = currentUser
        self.clock = clock
        self.logger = logger
        recoveries =
            [
                (FileOutboxStore.fileName, store.recovery), ("messages.log", messageLog.report),
                ("conversations.log", conversationLog.report), ("writes.log", writeLog.report),
            ] + zip(["sync.log", "receipts.log"], syncLogs).map { ($0, $1.report) } + [("users.log", userLog.report)]
        // Replays the current reading: a client opened online syncs what an earlier launch left queued.
        tokens.append(connectivity.observe { [weak self] online in if online { self?.syncWrites() } })
        syncEngine?.start()
    }

    isolated deinit { close() }

    // MARK: - Work

    /// Sends every queued and failed message, per conversation in compose order; returns when the pass is over.
    /// Offline, paused for sign-in or closed, it sends nothing and returns at once.
    public func sendAll() async {
        guard !isClosed else { return }
        let outbox = outbox
        await track { await outbox.sendAll() }.value
    }

    /// Starts delivering the queued writes when online (joining a sync that runs); `idle()` waits for it.
    public func syncWrites() {
        guard !isClosed else { return }
        let writes = writes
        track { _ = await writes.syncWhenOnline() }
    }

    /// Returns once everything the client started is done: Send All passes, sends, the automatic policy's passes
    /// and write syncs. It waits on the tasks themselves (through the clock's ledger), never by polling; work
    /// that sleeps on a virtual clock waits for that clock to be advanced.
    public func idle() async {
        while true {
            let receipts = syncEngine?.receiptWork.map { [$0] } ?? []
            let works = running.values.map(\.work) + outbox.runningWork + receipts
            guard !works.isEmpty else { return }
            // Each task removes itself from its owner's list before it ends, so the next look sees it gone.
            await TrackedWork.first(of: works)
        }
    }

    // MARK: - Lifecycle

    /// The app went to the background: sending stops and the outbox's lease is let go, for an extension to send
    /// meanwhile (`DurableOutbox.suspend()`); the live connection closes (`SyncEngine.enterBackground()`).
    public func enterBackground() {
        outbox.suspend()
        syncEngine?.enterBackground()
        reachability.enterBackground()
    }

    /// The app is back in the foreground: take the outbox's lease back and what its extensions composed meanwhile,
    /// and send again what the background cut off (`DurableOutbox.resume()`); catch up, then listen
    /// (`SyncEngine.enterForeground()`).
    public func enterForeground() {
        outbox.resume()
        reachability.enterForeground()
        syncEngine?.enterForeground()
    }

    /// Sign-in was renewed (the backend takes this user's requests again): the one call an app makes. Sending
    /// resumes with what the expired sign-in held back (`DurableOutbox.signInRenewed()`), the write queue resumes
    /// and syncs, and listening and receipts resume (`listeningSignInRenewed()`).
    public func signInRenewed() {
        guard !isClosed else { return }
        outbox.signInRenewed()
        writes.signInRenewed()
        syncWrites()
        listeningSignInRenewed()
    }

    /// Sign-in was renewed: listening and receipts resume (part of `signInRenewed()`, which an app calls).
    public func listeningSignInRenewed() {
        guard let syncEngine else { return }
        syncEngine.receipts.signInRenewed()
        syncEngine.signInRenewed()
    }

    /// Whether the sync is still bringing this device up to date, as far as it can now: a catch-up runs, or the
    /// cursor is behind `feedEnd` (where the backend's feed ends, for a caller that knows it: a backend in this
    /// process; evaluated only when needed). False while the sync cannot make progress — failing, paused for sign-in,
    /// in the background, stopped — and without a sync engine.
    public func isSyncSettling(feedEnd: @autoclosure () -> FeedPosition?) -> Bool {
        guard let sync = syncEngine, sync.consecutiveFailures == 0, !sync.isPausedForSignIn, sync.isInForeground,
            sync.isRunning
        else { return false }
        if sync.isCatchingUp { return true }
        guard let cursor = sync.cursor, let end = feedEnd() else { return false }
        return cursor.precedes(end) == true
    }

    /// Whether anything the client started still runs.
    public var isBusy: Bool {
        !running.isEmpty || outbox.isBusy || syncEngine?.isDeliveringReceipts == true
    }

    @discardableResult
    private func track(_ operation: @escaping @MainActor () async -> Void) -> TrackedTask<Void> {
        let key = nextWork
        nextWork += 1
        let task = clock.task { [weak self] in
            await operation()
            self?.running[key] = nil
        }
        running[key] = task
        return task
    }

    // MARK: - Closing

    /// Closes the client in order: stops the outbox (a send cut off goes back to `queued`), stops observing, then
    /// closes the stores and releases the directory. Closing twice is harmless; the client does nothing afterwards.
    public func close() {
        closeStores()
        files.lock.release()
    }

    /// Signs the user out of this device: stops every piece of work, closes the stores and erases every file of
    /// the directory — queued and failed messages, caches, the sync cursor, receipts and writes not yet sent, the
    /// owner — durably, while still holding the directory's lock. A process killed mid-erase leaves a marker, and
    /// the next open finishes the erase before it reads anything (`ClientDirectory`). The client is closed after;
    /// revoking the token at the backend (`HTTPChatClient.signOut()`) is the app's, beforehand.
    public func signOutErasingLocalData() throws {
        closeStores()
        defer { files.lock.release() }
        try ClientDirectory.erase(directory, fileSystem: files.fileSystem)
    }

    private func closeStores() {
        guard !isClosed else { return }
        isClosed = true
        outbox.stop()
        syncEngine?.stop()
        reachability.stop()
        for task in running.values { task.cancel() }
        tokens.removeAll()
        files.close()
    }
}
