import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// Profile edits through the generic offline write queue: the name changes on screen at once, the write is kept
/// durably and synced by itself when online. A write the queue gives up on (stale — at launch too —, rejected,
/// abandoned) is reported in `rejected` and its optimistic name is rolled back at once to the server's value.
@MainActor
public final class ProfileFeature {
    /// The write kind for a display-name change; one key, so a newer name replaces a queued older one.
    public static let displayNameKind = "profile.displayName"

    /// The queue (on the main actor's executor, so runs replay).
    public let writes: OfflineWriteQueue
    /// Writes not yet synced.
    public private(set) var pending = 0
    /// Writes the backend refused or that expired (reported, never dropped silently).
    public private(set) var rejected: [String] = []

    private let world: World
    private let users: UserCache
    private let currentUser: UserID
    private let tracker: WorkTracker
    private var tokens: [ObservationToken] = []

    /// What a display-name write does online: asks `network` to change `user`'s name.
    public static func displayNameExecutor(network: NetworkConditioner, user: UserID) -> OfflineWriteQueue.Executor {
        { write in
            let name: String = try write.decodePayload()
            try await network.updateDisplayName(of: user, to: name)
        }
    }

    /// Wires profile edits over `client`'s write queue (opened with `displayNameExecutor` for `displayNameKind`).
    public init(world: World, client: CourierClient, currentUser: UserID, tracker: WorkTracker) {
        self.world = world
        users = client.users
        self.currentUser = currentUser
        self.tracker = tracker
        writes = client.writes
        let network = world.network
        let writes = writes
        let events = ProfileEventRelay()
        // The queue shares the main actor's executor, so its observers are called on the main actor.
        tokens.append(writes.observe { event in MainActor.assumeIsolated { events.deliver(event) } })
        events.handler = { [weak self] event in self?.handle(event) }
        tokens.append(network.observe { [weak self] online in if online { self?.sync() } })
        tracker.start { [weak self, writes] in self?.pending = await writes.count }
        for write in writes.openReport.expired { report(write, "expired") }
    }

    /// The longest display name, in characters.
    public static let maxDisplayNameLength = 64

    /// Why a display name is refused.
    public enum NameError: Error, Equatable, CustomStringConvertible {
        /// Nothing but spaces.
        case empty
        /// Longer than `maxDisplayNameLength`.
        case tooLong(characters: Int, limit: Int)

        public var description: String {
            switch self {
            case .empty: "a display name cannot be empty"
            case .tooLong(let characters, let limit):
                "a display name is at most \(limit) characters (this one has \(characters))"
            }
        }
    }

    /// Changes the display name: shown at once (the user cache), queued durably, synced when online. Throws
    /// `NameError` for an empty or too long name (nothing changes).
    public func changeDisplayName(to name: String) async throws {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw NameError.empty }
        guard trimmed.count <= Self.maxDisplayNameLength else {
            throw NameError.tooLong(characters: trimmed.count, limit: Self.maxDisplayNameLength)
        }
        try await writes.enqueue(kind: Self.displayNameKind, key: Self.displayNameKind, payload: trimmed)
        pending = await writes.count
        users.update(User(id: currentUser, displayName: trimmed))
        sync()
    }

    /// Sign-in was renewed: resume and sync.
    public func signInRenewed() {
        tracker.start { [writes] in await writes.signInRenewed() }
        sync()
    }

    /// Starts a sync when online (joins one that runs).
    public func sync() {
        guard world.network.isOnline else { return }
        tracker.start { [weak self, writes] in
            _ = await writes.syncWhenOnline()
            self?.pending = await writes.count
        }
    }

    private func handle(_ event: WriteQueueEvent) {
        switch event {
        case .pendingCountChanged(let count): pending = count
        case .rejected(let write, let error): report(write, error.userMessage)
        case .expired(let write): report(write, "expired")
        case .abandoned(let write, let error): report(write, "gave up (\(error))")
        default: break
        }
    }

    /// Reports a write given up and, for a name change with no newer one queued, rolls the name on screen back.
    private func report(_ write: PendingWrite, _ why: String) {
        rejected.append("\(write.kind): \(why)")
        guard write.kind == Self.displayNameKind else { return }
        tracker.start { [weak self, writes] in
            let newer = await writes.allWrites.contains { $0.key == write.key }
            if !newer { await self?.rollBackDisplayName() }
        }
    }

    /// Shows the server's name again: asked of the backend; when it cannot answer, the optimistic name is dropped
    /// from the cache so the next read asks.
    private func rollBackDisplayName() async {
        let me = currentUser
        if let server = try? await world.network.users([me]).first(where: { $0.id == me }) {
            users.update(server)
        } else {
            users.invalidate(me)
        }
    }
}

/// Carries write-queue events to the main actor.
@MainActor
final class ProfileEventRelay {
    var handler: ((WriteQueueEvent) -> Void)?
    func deliver(_ event: WriteQueueEvent) { handler?(event) }
}
