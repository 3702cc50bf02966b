import Foundation

/// Threads that keep the cores busy until stopped: the load under which a test shows that virtual time and replay
/// do not depend on how fast the machine happens to run.
public final class BusyThreads: @unchecked Sendable {
    private let lock = NSLock()
    private var spinning = true

    /// Starts `count` threads spinning.
    public init(_ count: Int) {
        for _ in 0..<count {
            Thread.detachNewThread { [self] in
                var counter = 0
                while isSpinning { counter &+= 1 }
                _ = counter
            }
        }
    }

    private var isSpinning: Bool { lock.withLock { spinning } }

    /// Lets every thread end.
    public func stop() { lock.withLock { spinning = false } }
}
