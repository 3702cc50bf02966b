#if canImport(Glibc)
    import Glibc
#endif

/// The scheduling priority of the calling connection thread. A thread serving a request heavier than an app sends
/// (a large body, or a token drawing its request allowance down) lowers its own priority for the rest of its life, and
/// its connection is closed after the answer, so the next request of that client starts on a fresh thread at the
/// normal priority. Lowering is always allowed; raising back is not, without privileges — hence the close. Other
/// users' requests, on threads at the normal priority, then take the core first when both are ready.
///
/// Linux only: there a nice value belongs to a thread (`setpriority` with `PRIO_PROCESS` and 0 names the caller).
/// Elsewhere it changes nothing.
enum ThreadPriority {
    /// The nice value a heavy request's thread runs at (0 is the normal one, 19 the lowest).
    static let lowered: Int32 = 10

    /// Lowers the calling thread's priority to `lowered`.
    static func lower() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, lowered)
        #endif
    }

    /// The calling thread's nice value (0 where it cannot be read).
    static var current: Int32 {
        #if os(Linux)
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
            return 0
        #endif
    }
}
