import Foundation

/// Attack traffic on threads of its own (never the test's cooperative pool, which blocking sockets would starve):
/// `threads` loops, each running `attempt` until `stop()`, `maxAttempts` per thread or `maxDuration`, whichever comes
/// first — bounded in count and time whatever happens to the test.
public final class Attacker: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var running = 0
    private var attempts = 0

    /// Starts `threads` loops of `attempt` (given the thread's index), on `cores` when given (as an attacker on
    /// another machine, whose own work is not the server's).
    public init(
        threads: Int, maxAttempts: Int = 5_000, maxDuration: Duration = .seconds(60), cores: [Int]? = nil,
        attempt: @escaping @Sendable (Int) -> Void
    ) {
        let deadline = ContinuousClock.now + maxDuration
        running = threads
        for index in 0..<threads {
            let thread = Thread { [self] in
                if let cores { CorePinning.pin(to: cores) }
                var count = 0
                while count < maxAttempts, ContinuousClock.now < deadline, !lock.withLock({ stopped }) {
                    attempt(index)
                    count += 1
                    lock.withLock { attempts += 1 }
                }
                lock.withLock { running -= 1 }
            }
            thread.name = "attacker \(index)"
            thread.start()
        }
    }

    /// Attempts made so far (each counted once it has ended).
    public var attemptsMade: Int { lock.withLock { attempts } }

    /// Stops every loop and waits (at most 30 s on the wall clock) for them to end.
    public func stop() async {
        lock.withLock { stopped = true }
        for _ in 0..<3_000 where lock.withLock({ running > 0 }) { try? await Task.sleep(for: .milliseconds(10)) }
    }
}
