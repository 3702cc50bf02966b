import CourierDomain
import Foundation

/// The write queue a test sets up: the one stand-in for `WriteQueue`, in memory, for the screens in front of one. It
/// coalesces by key and reports count changes like the real one; a sync takes `syncLatency` on the clock and delivers
/// everything, and the test plays the queue's give-ups (`giveUp(_:as:)`). It records the syncs and renewed sign-ins.
@MainActor
public final class FakeWriteQueue: WriteQueue {
    /// Every queued write, in delivery order.
    public private(set) var allWrites: [PendingWrite] = []
    /// Always false: this queue never pauses for sign-in.
    public private(set) var isPausedForSignIn = false
    /// The stale writes it says it removed when it opened.
    public let expiredAtOpen: [PendingWrite]
    /// What the next `enqueue` throws, if anything.
    public var refusal: (any Error)?
    /// How long a sync takes on the clock.
    public var syncLatency: Duration = .zero
    /// How many syncs ran.
    public private(set) var syncs = 0
    /// How many times sign-in was renewed.
    public private(set) var renewals = 0
    private let clock: ManualClock
    private let observers = ObserverList<WriteQueueEvent>()
    private var nextID = 0

    /// An empty queue on `clock` that says it removed `expiredAtOpen` when it opened.
    public init(clock: ManualClock, expiredAtOpen: [PendingWrite] = []) {
        self.clock = clock
        self.expiredAtOpen = expiredAtOpen
    }

    /// How many writes are queued.
    public var count: Int { allWrites.count }

    /// The payloads of the queued writes that decode as `type`, in order.
    public func payloads<Payload: Decodable>(_ type: Payload.Type) -> [Payload] {
        allWrites.compactMap { try? $0.decodePayload(type) }
    }

    /// Queues `payload` (replacing a queued write with the same key), or throws `refusal`.
    @discardableResult
    public func enqueue<T: Encodable>(kind: String, key: String?, payload: T) throws -> PendingWrite {
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

    /// Delivers every queued write after `syncLatency`; returns how many.
    public func syncWhenOnline() async -> Int {
        syncs += 1
        try? await clock.sleep(for: syncLatency)
        let delivered = allWrites
        for write in delivered { remove(write, reporting: .delivered(write)) }
        return delivered.count
    }

    /// Removes every queued write.
    public func clear() throws {
        for write in allWrites { remove(write, reporting: nil) }
    }

    /// Counts a renewed sign-in.
    public func signInRenewed() { renewals += 1 }

    /// Calls `observer` with every event, until the token is released.
    public func observe(_ observer: @escaping @MainActor (WriteQueueEvent) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Gives `write` up as the real queue does: it leaves, and `event` (rejected, abandoned, expired) reports it.
    public func giveUp(_ write: PendingWrite, as event: WriteQueueEvent) { remove(write, reporting: event) }

    private func remove(_ write: PendingWrite, reporting event: WriteQueueEvent?) {
        allWrites.removeAll { $0.id == write.id }
        if let event { observers.notify(event) }
        observers.notify(.pendingCountChanged(count))
    }
}
