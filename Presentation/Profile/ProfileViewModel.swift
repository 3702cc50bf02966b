import CourierDomain
import Foundation

/// Profile edits through the generic offline write queue.
///
/// - Changing the display name shows it at once (the user directory), queues the write durably and starts a sync;
///   the queue delivers it when online, and coming online syncs again. A newer name replaces a queued older one.
/// - A write the queue gives up on — stale (those removed when the queue opened too), refused by the backend,
///   abandoned after too many attempts — is listed in `givenUp`; for a name change with no newer one queued, the
///   name on screen is rolled back at once to the backend's (or, when it cannot answer, dropped from the directory
///   so the next read asks).
/// - Sign-in renewed: the queue resumes and syncs.
@MainActor
public final class ProfileViewModel: StateEmitting {
    /// The write kind (and coalescing key) of a display-name change: a newer name replaces a queued older one.
    public static let displayNameKind = "profile.displayName"
    /// The longest display name, in characters.
    public static let maxDisplayNameLength = 64

    // MARK: - Dependencies

    private let currentUser: UserID
    private let writes: any WriteQueue
    private let users: any EditableUserDirectory
    private let connectivity: any ConnectivityMonitor
    private let strings: CourierStrings
    private let tasks: TaskTracker
    private let store: StateStore<State>
    private var tokens: [ObservationToken] = []

    // MARK: - Init

    /// Creates the view model over `writes` (whose executor for `displayNameKind` changes the name on the backend),
    /// reports the writes the queue removed as stale when it opened, and syncs whenever the device comes online.
    ///
    /// - Parameters:
    ///   - currentUser: the user whose display name this screen edits.
    ///   - writes: the durable queue a name change waits in until it is delivered or given up.
    ///   - users: where the name is shown at once, and rolled back to the backend's (`reload(_:)`).
    ///   - connectivity: coming online starts a sync of the queue.
    ///   - clock: what the view model's syncs and rollbacks run on (its `TaskTracker`).
    ///   - strings: the words of the lines in `givenUp`.
    public init(
        currentUser: UserID, writes: any WriteQueue, users: any EditableUserDirectory,
        connectivity: any ConnectivityMonitor, clock: any Clock, strings: CourierStrings = .english
    ) {
        self.strings = strings
        tasks = TaskTracker(clock: clock)
        store = StateStore(State(pendingCount: writes.count, givenUp: []))
        self.currentUser = currentUser
        self.writes = writes
        self.users = users
        self.connectivity = connectivity
        tokens.append(writes.observe { [weak self] event in self?.writeQueueChanged(event) })
        tokens.append(connectivity.observe { [weak self] online in if online { self?.sync() } })
        for write in writes.expiredAtOpen { giveUp(write, strings.writeExpired) }
    }

    // MARK: - Output

    /// The current state.
    public var state: State { store.state }

    /// Replays the current state to `observer`, then calls it on every change.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        store.observe(observer)
    }

    /// Whether work started by an input or an event (a sync, a rollback) still runs.
    public var hasPendingWork: Bool { !tasks.isIdle }

    // MARK: - Inputs

    /// Changes the display name: shown at once, queued durably, synced when online. Throws `DisplayNameError` for an
    /// empty or too long name, and the queue's error when it cannot take the write; either way nothing changes.
    public func changeDisplayName(to name: String) throws {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DisplayNameError.empty }
        guard trimmed.count <= Self.maxDisplayNameLength else {
            throw DisplayNameError.tooLong(characters: trimmed.count, limit: Self.maxDisplayNameLength)
        }
        try writes.enqueue(kind: Self.displayNameKind, key: Self.displayNameKind, payload: trimmed)
        store.update { $0.pendingCount = writes.count }
        users.update(User(id: currentUser, displayName: trimmed))
        sync()
    }

    /// Sign-in was renewed: the queue resumes and syncs.
    public func signInRenewed() {
        writes.signInRenewed()
        sync()
    }

    /// Starts a sync when online (joining one that runs).
    public func sync() {
        guard connectivity.isOnline else { return }
        let writes = writes
        tasks.run { [weak self] in
            _ = await writes.syncWhenOnline()
            self?.store.update { $0.pendingCount = writes.count }
        }
    }

    // MARK: - Events

    private func writeQueueChanged(_ event: WriteQueueEvent) {
        switch event {
        case .pendingCountChanged(let count): store.update { $0.pendingCount = count }
        case .rejected(let write, let error): giveUp(write, strings.deliveryError(error))
        case .expired(let write): giveUp(write, strings.writeExpired)
        case .abandoned(let write, let error): giveUp(write, strings.writeAbandoned(error))
        default: break
        }
    }

    /// Lists a write given up and, for a name change with no newer one queued, rolls the name on screen back.
    private func giveUp(_ write: PendingWrite, _ why: String) {
        store.update { $0.givenUp.append(strings.writeGivenUp(write.kind, why)) }
        guard write.kind == Self.displayNameKind else { return }
        let writes = writes
        tasks.run { [weak self] in
            let newer = writes.allWrites.contains { $0.key == write.key }
            if !newer { await self?.rollBackDisplayName() }
        }
    }

    /// Shows the backend's name again; when it cannot answer, the optimistic name is dropped from the directory so
    /// the next read asks.
    private func rollBackDisplayName() async {
        await users.reload(currentUser)
    }
}
