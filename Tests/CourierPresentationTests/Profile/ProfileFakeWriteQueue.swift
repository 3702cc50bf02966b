import CourierDomain
import Foundation

/// A write queue in memory for the profile screen's tests: it coalesces by key and reports count changes like the
/// real one; a sync delivers everything unless the test says what it does, and the test plays the queue's
/// give-ups (`giveUp(_:)`).
@MainActor
final class ProfileFakeWriteQueue: WriteQueue {
    private(set) var allWrites: [PendingWrite] = []
    private(set) var isPausedForSignIn = false
    let expiredAtOpen: [PendingWrite]
    /// What the next `enqueue` throws, if anything.
    var refusal: (any Error)?
    /// How long a sync takes on the clock.
    var syncLatency: Duration = .zero
    /// How many syncs ran, and how many times sign-in was renewed.
    private(set) var syncs = 0
    private(set) var renewals = 0
    private let clock: ManualClock
    private let observers = ObserverList<WriteQueueEvent>()
    private var nextID = 0

    init(clock: ManualClock, expiredAtOpen: [PendingWrite] = []) {
        self.clock = clock
        self.expiredAtOpen = expiredAtOpen
    }

    var count: Int { allWrites.count }

    /// The names queued, in order.
    var queuedNames: [String] { allWrites.compactMap { try? $0.decodePayload(String.self) } }

    @discardableResult
    func enqueue<T: Encodable>(kind: String, key: String?, payload: T) throws -> PendingWrite {
        if let refusal { throw refusal }
        nextID += 1
        let write = PendingWrite(
            id: "w\(nextID)", kind: kind, key: key, payload: try JSONEncoder().encode(payload), createdAt: clock.now)
        let before = count
        allWrites.removeAll { key != nil && $0.key == key }
        allWrites.append(write)
        if count != before { observers.notify(.pendingCountChanged(count)) }
        return write
    }

    func syncWhenOnline() async -> Int {
        syncs += 1
        try? await clock.sleep(for: syncLatency)
        let delivered = allWrites
        for write in delivered { remove(write, reporting: .delivered(write)) }
        return delivered.count
    }

    func clear() throws { allWrites.forEach { remove($0, reporting: nil) } }

    func signInRenewed() { renewals += 1 }

    func observe(_ observer: @escaping @MainActor (WriteQueueEvent) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Gives `write` up as the real queue does: it leaves, and `event` (rejected, abandoned, expired) reports it.
    func giveUp(_ write: PendingWrite, as event: WriteQueueEvent) { remove(write, reporting: event) }

    private func remove(_ write: PendingWrite, reporting event: WriteQueueEvent?) {
        allWrites.removeAll { $0.id == write.id }
        if let event { observers.notify(event) }
        observers.notify(.pendingCountChanged(count))
    }
}
