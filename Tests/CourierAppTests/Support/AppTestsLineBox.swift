/// A line one thread reads and another waits for (the waiting is the caller's: a semaphore).
final class AppTestsLineBox: @unchecked Sendable {
    /// The line, once read.
    var line: String?
}
