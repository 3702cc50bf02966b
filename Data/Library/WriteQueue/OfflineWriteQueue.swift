import CourierDomain
import CourierStore
import Foundation

/// A durable queue of typed writes (profile settings, ratings…) that reach the backend once the device is online.
/// `enqueue` returns once the write is durable; `syncWhenOnline()` delivers the queued writes, in order, through
/// executors registered per kind where the app is composed — the queue knows nothing of endpoints.
///
/// What happens after each answer is `WriteOutcomePolicy`'s doc comment. Writes with the same coalescing key
/// replace one another; the queue is bounded; stale writes are dropped and reported; one sync runs at a time.
///
/// Like `DurableOutbox`, it lives on the main actor and takes its dependencies at init: connectivity from a
/// `ConnectivityMonitor`, its waits from `RetryPolicy`s (within a sync, and for the syncs it plans itself), its
/// tasks from the injected clock (`Clock.task`), so every step interleaves deterministically with a `ManualClock`
/// (docs/design.md §8). Observers are called on the main actor.
@MainActor
public final class OfflineWriteQueue: WriteQueue {
    /// Delivers one write to the backend; throws a `DeliveryError` when it does not get through. Runs on the
    /// caller's actor (the main actor), one write at a time.
    public typealias Executor = @Sendable (PendingWrite) async throws -> Void

    // MARK: - Dependencies

    private let journal: WriteQueueJournal
    private let clock: any Clock
    private let connectivity: any ConnectivityMonitor
    private let configuration: WriteQueueConfiguration
    private let retryPolicy: RetryPolicy
    private let resyncPolicy: RetryPolicy
    private let ids: IDGenerator
    private let random: LockedRandom?
    private let logger: Logger
    private let observers = ObserverList<WriteQueueEvent>()

    // MARK: - State

    private var executors: [String: Executor]
    private var runningSync: TrackedTask<Int>?
    private var inFlightID: String?
    /// The queue's own next sync, after one left a write whose retries it spent (online only).
    private var followUp: TrackedTask<Void>?
    private var followUpRound = 0

    /// When the queue will sync again by itself (a write's retries were spent while online); nil when not planned.
    public private(set) var nextResync: Date?

    /// Whether syncing waits for sign-in to be renewed (an executor answered unauthorized or forbidden).
    public private(set) var isPausedForSignIn = false
    /// How many times sign-in was renewed: a write sent before the latest renewal and refused for sign-in was refused
    /// on the old sign-in, which says nothing about the new one.
    private var signInRenewals = 0

    /// What opening found: how many writes were loaded, which stale ones were removed, what could not be read.
    public let openReport: WriteQueueOpenReport

    /// Opens the queue on `storage`: replays its records, then removes (and reports in `openReport`) the writes
    /// older than `configuration.staleAfter`. Throws `StoreError` when the storage cannot be read.
    ///
    /// - Parameters:
    ///   - storage: where the queue's records are kept (a record log on disk, or memory); replayed here.
    ///   - clock: what the queue's syncs run on and its waits sleep on; its `now` dates each write and decides
    ///     which are stale.
    ///   - connectivity: read before each sync and retry (offline: sync does nothing).
    ///   - configuration: the queue's limits: capacity, when a write is stale, attempts before it is abandoned,
    ///     the largest payload.
    ///   - retryPolicy: how often one sync retries a write, and the waits in between (`.writeQueueRetries`:
    ///     1 s, 2 s, 4 s). Only its delays and `maxRetries` apply: the executor bounds its own attempts.
    ///   - resyncPolicy: the waits before the syncs the queue plans itself while a write is left behind online
    ///     (`.writeQueueResyncs`: 30 s, doubling up to 5 minutes); they go on until the write is delivered or
    ///     abandoned, so its `maxRetries` is not used.
    ///   - executors: executors by kind; more can be added with `register(kind:executor:)`.
    ///   - ids: write ids (seeded in scripts and tests, so runs replay).
    ///   - random: the seeded generator for backoff jitter, drawn once per wait; nil for none.
    ///   - logger: where the queue reports what it removed at open, what it delivered and why it did not sync.
    public init(
        storage: any RecordStorage, clock: any Clock, connectivity: any ConnectivityMonitor,
        configuration: WriteQueueConfiguration = .standard, retryPolicy: RetryPolicy = .writeQueueRetries,
        resyncPolicy: RetryPolicy = .writeQueueResyncs, executors: [String: Executor] = [:], ids: IDGenerator = .random,
        random: LockedRandom? = nil, logger: Logger = .silent
    ) throws {
        let journal = try WriteQueueJournal(storage: storage, logger: logger)
        var expired: [PendingWrite] = []
        do {
            let cutoff = clock.now.addingTimeInterval(-configuration.staleAfter.timeInterval)
            expired = try journal.removeCreated(before: cutoff)
        } catch {
            logger.log(.warning, "write queue: could not remove stale writes at open (\(error)); retrying at sync")
        }
        if !expired.isEmpty { logger.log(.info, "write queue: removed \(expired.count) stale writes at open") }
        logger.log(.info, "write queue: loaded \(journal.count) writes from disk")
        self.journal = journal
        self.clock = clock
        self.connectivity = connectivity
        self.configuration = configuration
        self.retryPolicy = retryPolicy
        self.resyncPolicy = resyncPolicy
        self.executors = executors
        self.ids = ids
        self.random = random
        self.logger = logger
        openReport = WriteQueueOpenReport(
            loaded: journal.count, expired: expired, skippedRecords: journal.skippedRecords)
    }

    isolated deinit { followUp?.cancel() }

    // MARK: - Reading

    /// How many writes are queued.
    public var count: Int { journal.count }

    /// Every queued write, in delivery order.
    public var allWrites: [PendingWrite] { journal.all }

    /// The stale writes opening removed (`openReport.expired`), oldest first.
    public var expiredAtOpen: [PendingWrite] { openReport.expired }

    /// Calls `observer` with every event until the token is released.
    public func observe(_ observer: @escaping @MainActor (WriteQueueEvent) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    // MARK: - Composing

    /// Sets the executor for writes of `kind` (replacing any earlier one).
    public func register(kind: String, executor: @escaping Executor) {
        executors[kind] = executor
    }

    // MARK: - Writing

    /// Queues a write durably and returns it. A queued write with the same `key` is replaced (the new one goes to
    /// the end, so it is delivered after everything queued before it); a write being delivered right now is not
    /// replaced but dropped if that attempt fails. Throws `WriteQueueError` for an empty kind or key or an
    /// unencodable payload, `StoreError.recordTooLarge` for an oversized payload, `StoreError.capacityReached`
    /// when full (nothing is evicted) and `StoreError.io` when storage fails; a refused write changes nothing.
    @discardableResult
    public func enqueue<T: Encodable>(kind: String, key: String? = nil, payload: T) throws -> PendingWrite {
        let queued = try enqueue(kind: kind, writes: [(key: key, payload: payload)])
        return queued[0]
    }

    /// Queues several writes of one kind durably in one append — one synced write to storage rather than one per
    /// write — and returns them in order. Each is queued as `enqueue(kind:key:payload:)` queues one; a later write
    /// in `writes` replaces an earlier one with the same key, so one write per key is returned. All or nothing: a
    /// write that `enqueue(kind:key:payload:)` would refuse, or more new writes than the queue has room for, throws
    /// the same error and queues none.
    @discardableResult
    public func enqueue<T: Encodable>(kind: String, writes: [(key: String?, payload: T)]) throws -> [PendingWrite] {
        guard !kind.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw WriteQueueError.emptyKind }
        if writes.contains(where: { $0.key?.isEmpty == true }) { throw WriteQueueError.emptyKey }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var bodies: [(key: String?, body: Data)] = []
        for write in writes {
            let body: Data
            do {
                body = try encoder.encode(write.payload)
            } catch {
                throw WriteQueueError.unencodablePayload(String(describing: error))
            }
            guard body.count <= configuration.maxPayloadBytes else {
                throw StoreError.recordTooLarge(bytes: body.count, limit: configuration.maxPayloadBytes)
            }
            if let key = write.key, let earlier = bodies.firstIndex(where: { $0.key == key }) {
                bodies.remove(at: earlier)
            }
            bodies.append((write.key, body))
        }
        let replaced = bodies.map { entry in
            entry.key.flatMap { journal.newest(forKey: $0) }.flatMap { $0.id == inFlightID ? nil : $0.id }
        }
        let added = replaced.filter { $0 == nil }.count
        guard added == 0 || journal.count + added <= configuration.capacity else {
            throw StoreError.capacityReached(limit: configuration.capacity)
        }
        var queued: [(write: PendingWrite, replacing: String?)] = []
        for (entry, replacing) in zip(bodies, replaced) {
            var id = ids.next().rawValue
            // A seeded generator restarted after a relaunch replays ids; never let a new write take a queued one's id.
            while journal.write(id: id) != nil || queued.contains(where: { $0.write.id == id }) {
                id = ids.next().rawValue
            }
            let write = PendingWrite(id: id, kind: kind, key: entry.key, payload: entry.body, createdAt: clock.now)
            queued.append((write, replacing))
        }
        try journal.insert(queued)
        for (write, replacing) in queued {
            logger.log(.debug, "write queue: queued \(kind) \(write.id)\(replacing.map { " replacing \($0)" } ?? "")")
        }
        if added > 0 { observers.notify(.pendingCountChanged(journal.count)) }
        return queued.map(\.write)
    }

    /// Removes every queued write (durable). Throws `StoreError` when storage fails (nothing changed).
    public func clear() throws {
        let before = journal.count
        try journal.removeAll()
        if before > 0 { observers.notify(.pendingCountChanged(0)) }
    }

    /// Removes the queued writes `predicate` picks (durable) — the receipts of a conversation the user deleted —
    /// except one being delivered right now, which ends on its own; returns how many. Throws `StoreError` when
    /// storage fails (nothing changed).
    @discardableResult
    public func discard(where predicate: (PendingWrite) -> Bool) throws -> Int {
        let doomed = journal.all.filter { $0.id != inFlightID && predicate($0) }.map(\.id)
        guard !doomed.isEmpty else { return 0 }
        try journal.remove(doomed, because: .discarded)
        observers.notify(.pendingCountChanged(journal.count))
        return doomed.count
    }

    /// Sign-in was renewed: syncing may resume. The next `syncWhenOnline()` delivers.
    public func signInRenewed() {
        signInRenewals += 1
        guard isPausedForSignIn else { return }
        isPausedForSignIn = false
        observers.notify(.pausedForSignIn(false))
    }

    // MARK: - Syncing

    /// Delivers the queued writes in order when online and not paused, after removing stale ones; returns how
    /// many were delivered (0 when offline or paused). Writes queued during the sync are delivered by it too. A
    /// call made while a sync runs joins it and returns the same count; it never starts a second one.
    @discardableResult
    public func syncWhenOnline() async -> Int {
        if let runningSync { return await runningSync.value }
        let sync = clock.task { await self.runSync() }
        runningSync = sync
        return await sync.value
    }

    private func runSync() async -> Int {
        defer { runningSync = nil }
        if isPausedForSignIn {
            logger.log(.info, "write queue: paused until sign-in is renewed, not syncing")
            return 0
        }
        guard connectivity.isOnline else {
            logger.log(.info, "write queue: offline, not syncing")
            return 0
        }
        removeStale()
        if journal.count > 0 { logger.log(.info, "write queue: starting sync of \(journal.count) queued writes") }
        var delivered = 0
        var position: UInt64 = 0
        var leftBehind = false
        defer { planFollowUp(leftBehind: leftBehind) }
        while let (sequence, write) = journal.next(after: position) {
            position = sequence
            guard let executor = executors[write.kind] else {
                logger.log(.warning, "write queue: no executor for \(write.kind); \(write.id) stays queued")
                observers.notify(.noExecutor(write))
                continue
            }
            inFlightID = write.id
            let outcome = await deliver(write, with: executor)
            inFlightID = nil
            switch outcome {
            case .delivered:
                delivered += 1
                logger.log(.info, "write queue: synced \(write.kind)")
            case .kept: continue
            case .retryLater: leftBehind = true
            case .stopSync: return delivered
            }
        }
        logger.log(.info, "write queue: sync delivered \(delivered)")
        return delivered
    }

    private enum DeliveryOutcome {
        /// The write got through.
        case delivered
        /// The write stays (or went) and needs nothing more from this sync.
        case kept
        /// The write stays after this sync spent its retries: a later sync must try again.
        case retryLater
        /// Nothing more can get through in this sync.
        case stopSync
    }

    /// After a sync: when it left a write behind, plans the next one after a growing, capped delay on the clock;
    /// otherwise starts the growth over. Offline, paused or not, a reconnect syncs anyway.
    private func planFollowUp(leftBehind: Bool) {
        followUp?.cancel()
        followUp = nil
        nextResync = nil
        guard leftBehind, journal.count > 0, !isPausedForSignIn else {
            followUpRound = 0
            return
        }
        // No jitter draw: the follow-ups are this device's own, not a crowd retrying in step.
        let delay = resyncPolicy.backoff(beforeRetry: followUpRound + 1, unit: 0.5)
        followUpRound += 1
        let clock = clock
        let deadline = clock.now.addingTimeInterval(delay.timeInterval)
        nextResync = deadline
        logger.log(.info, "write queue: a write is left behind; syncing again in \(delay)")
        // Weak: a queue that is closed and dropped (an app restart) must not sync on after it.
        followUp = clock.task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.syncWhenOnline()
        }
    }

    /// One write through `WriteOutcomePolicy`, retries included.
    private func deliver(_ first: PendingWrite, with executor: Executor) async -> DeliveryOutcome {
        var write = first
        var retries = 0
        while true {
            let renewals = signInRenewals
            do {
                try await executor(write)
                return finish(write, because: .delivered, event: .delivered(write)) ? .delivered : .stopSync
            } catch {
                let failure = error as? DeliveryError ?? .unknown(String(describing: error))
                write.attempts += 1
                write.lastError = failure
                do { try journal.recordAttempt(write) } catch { return storageFailed(error) }
                // Cleared while the attempt ran: nothing is left to retry or report.
                guard journal.write(id: write.id) != nil else { return .kept }
                logger.log(.info, "write queue: \(write.kind) \(write.id) failed (\(failure))")
                switch WriteOutcomePolicy(after: failure) {
                case .pauseForSignIn:
                    // Refused on the sign-in renewed while the write was out: the renewal came already, so it goes
                    // again now (a refusal of that attempt pauses).
                    if signInRenewals != renewals { continue }
                    isPausedForSignIn = true
                    observers.notify(.pausedForSignIn(true))
                    return .stopSync
                case .reject:
                    return finish(write, because: .rejected, event: .rejected(write, failure)) ? .kept : .stopSync
                case .retry:
                    break
                }
                if let key = write.key, journal.newest(forKey: key)?.id != write.id {
                    // A newer write to the same key came in during this attempt: it carries the value that counts.
                    return finish(write, because: .replaced, event: nil) ? .kept : .stopSync
                }
                if let limit = configuration.maxAttempts, write.attempts >= limit {
                    return finish(write, because: .abandoned, event: .abandoned(write, failure)) ? .kept : .stopSync
                }
                guard retries < retryPolicy.maxRetries, !Task.isCancelled else {
                    observers.notify(.attemptFailed(write, failure, retryIn: nil))
                    return failure == .offline || Task.isCancelled ? .stopSync : .retryLater
                }
                let backoff = retryPolicy.backoff(beforeRetry: retries + 1, unit: random?.nextUnit() ?? 0.5)
                let delay = max(backoff, failure.retryAfter ?? .zero)
                observers.notify(.attemptFailed(write, failure, retryIn: delay))
                retries += 1
                do { try await clock.sleep(for: delay) } catch { return .stopSync }
                guard connectivity.isOnline else { return .stopSync }
                // The write may have been cleared or replaced while the queue waited.
                guard let current = journal.write(id: write.id) else { return .kept }
                write = current
            }
        }
    }

    /// Removes a finished write and reports it; false when storage failed (the write stays, the sync stops).
    private func finish(
        _ write: PendingWrite, because reason: WriteQueueRecord.RemovalReason, event: WriteQueueEvent?
    ) -> Bool {
        let wasQueued = journal.write(id: write.id) != nil
        do { try journal.remove([write.id], because: reason) } catch {
            _ = storageFailed(error)
            return false
        }
        if let event { observers.notify(event) }
        if wasQueued { observers.notify(.pendingCountChanged(journal.count)) }
        return true
    }

    private func storageFailed(_ error: any Error) -> DeliveryOutcome {
        logger.log(.error, "write queue: storage failed during sync (\(error)); stopping")
        return .stopSync
    }

    private func removeStale() {
        let cutoff = clock.now.addingTimeInterval(-configuration.staleAfter.timeInterval)
        do {
            let expired = try journal.removeCreated(before: cutoff)
            guard !expired.isEmpty else { return }
            logger.log(.info, "write queue: removed \(expired.count) stale writes")
            for write in expired { observers.notify(.expired(write)) }
            observers.notify(.pendingCountChanged(journal.count))
        } catch {
            logger.log(.warning, "write queue: could not remove stale writes (\(error))")
        }
    }
}
