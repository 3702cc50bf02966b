import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Pure work run on a thread of lower CPU priority: a heavy request's decoding and checking and its answer's encoding
/// (`HTTPRequest.isHeavy`), so that on a busy machine it takes the CPU that ordinary requests leave instead of an
/// equal share beside them.
///
/// On Linux a thread's nice value is its own (`setpriority` on the calling thread) and an unprivileged thread can
/// never lower it again, so each run gets a fresh thread that ends with the work. A thread inherits its creator's nice
/// value, and libdispatch starts its worker threads from whichever thread asks for work: the work must therefore be
/// pure — no queue, task, actor or lock another thread waits on — or the lower priority would leak into the workers
/// that run everyone's requests (the main actor's turns stay on the connection's thread's side). Elsewhere the work
/// runs at its caller's priority.
enum LowPriority {
    /// How much the work's thread's nice value is raised above its creator's (at most to 19).
    static let niceIncrement: Int32 = 10

    /// The nice value of the calling thread (Linux); nil where the platform has none per thread.
    static var currentNice: Int32? {
        #if canImport(Glibc)
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            return errno == 0 ? nice : nil
        #else
            return nil
        #endif
    }

    /// Runs `work` on a new thread of lower priority and returns its value once it is done; the calling thread waits,
    /// blocked. `work` must be pure (see the type's note).
    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> Value {
        let result = Handoff<Value>()
        let thread = Thread {
            #if canImport(Glibc)
                if let nice = currentNice {
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, nice + niceIncrement))
                }
            #endif
            result.set(work())
        }
        thread.name = "courier-server heavy request"
        thread.start()
        return result.wait()
    }

    /// A count kept from any thread.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        /// The count now.
        var count: Int { lock.withLock { value } }

        /// Adds one.
        func add() { lock.withLock { value += 1 } }
    }

    /// A value handed from the work's thread to the waiting one.
    private final class Handoff<Value: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: Value?

        func set(_ value: Value) {
            self.value = value
            done.signal()
        }

        func wait() -> Value {
            done.wait()
            guard let value else { preconditionFailure("signalled without a value") }
            return value
        }
    }
}
