import CourierDomain
import Foundation
import Testing

/// Courier's own lock, which the outbox's targets use instead of `NSLock`: it excludes, and its condition wakes a
/// waiter.
@Suite("Lock")
struct LockTests {
    /// A counter only the lock guards.
    private final class Counter: @unchecked Sendable {
        let lock = Lock()
        var value = 0
    }

    @Test("eight threads adding 10,000 each under the lock lose no addition")
    func excludes() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.lock.withLock { counter.value += 1 } }
                }
            }
        }
        #expect(counter.lock.withLock { counter.value } == 80_000)
    }

    @Test("a thread waiting on the condition wakes when another sets the value and broadcasts")
    func waitWakesOnBroadcast() async {
        let counter = Counter()
        let waiter = Thread {
            counter.lock.lock()
            while counter.value == 0 { counter.lock.wait() }
            counter.value += 1
            counter.lock.unlock()
        }
        waiter.start()
        counter.lock.withLock {
            counter.value = 1
            counter.lock.broadcast()
        }
        // The waiter adds one once it wakes; a missed wake-up leaves 1 here for good and the poll below gives up.
        var woke = false
        for _ in 0..<2_000 where !woke {
            woke = counter.lock.withLock { counter.value == 2 }
            if !woke { await Task.yield() }
        }
        #expect(woke)
    }
}
