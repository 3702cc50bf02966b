import CourierDomain
import CourierStore

/// Delivers this device's queued receipts (its read and delivered markers, durable in their own write queue): one
/// delivery at a time, started when the engine may deliver (`canDeliver`: online, not stopped); once it ends, another
/// at once only for receipts queued while it ran (a receipt the disk would not let go of waits for the queue's own
/// follow-up, never a tight loop of deliveries); and whether a delivery runs without having failed.
@MainActor
final class ReceiptSender {
    /// The durable queue the receipts wait in.
    let queue: OfflineWriteQueue
    private let clock: any Clock
    private let canDeliver: @MainActor () -> Bool
    private var delivery: TrackedTask<Void>?
    /// Appends so far: a delivery that ends goes again only for receipts queued while it ran.
    private var appends = 0
    /// Whether the last attempt failed (until one is delivered).
    private var failing = false
    private var token: ObservationToken?

    /// A sender over `queue` on `clock`, delivering only while `canDeliver` says it may.
    init(queue: OfflineWriteQueue, clock: any Clock, canDeliver: @escaping @MainActor () -> Bool) {
        self.queue = queue
        self.clock = clock
        self.canDeliver = canDeliver
        token = queue.observe { [weak self] event in
            switch event {
            case .attemptFailed: self?.failing = true
            case .delivered: self?.failing = false
            default: break
            }
        }
    }

    /// Receipts were appended to the queue.
    func noteAppend() { appends += 1 }

    /// Starts delivering the queued receipts when the engine may, unless a delivery runs or none waits.
    func deliver() {
        guard canDeliver(), queue.count > 0, delivery == nil else { return }
        let queue = queue
        let appendsBefore = appends
        delivery = clock.task { [weak self] in
            _ = await queue.syncWhenOnline()
            guard let self else { return }
            delivery = nil
            if appends != appendsBefore, queue.count > 0, !queue.isPausedForSignIn { deliver() }
        }
    }

    /// Whether receipts are being delivered now and no attempt of this delivery has failed: a failing delivery
    /// retries in the background, and nothing waits for it.
    var isDelivering: Bool { delivery != nil && !failing }

    /// The delivery under way, for a caller that waits for the client's work.
    var work: TrackedWork? { delivery?.work }
}
