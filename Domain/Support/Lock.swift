#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over the platform's `pthread_mutex_t`, with a condition to wait on while holding it.
///
/// Courier's own, so that the targets an app extension links (CourierDomain and CourierStore) need nothing of
/// Foundation beyond its essentials: `NSLock` and `NSCondition` live in the full Foundation, which costs a process
/// several megabytes of mapped libraries on Linux (docs/benchmarks.md, "Memory and start-up against a hello world").
/// Not recursive: a thread that takes it twice deadlocks, as with `NSLock`.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A new, unlocked lock.
    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Lets the lock go; the calling thread must hold it.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Lets the lock go until `broadcast()` is called, then takes it again; call holding the lock, in a loop that
    /// checks what it waits for (a wake-up may come without a broadcast).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread waiting in `wait()`.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
