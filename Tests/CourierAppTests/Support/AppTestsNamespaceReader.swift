import Foundation

/// Reads a pipe to its end on a thread of its own.
final class AppTestsNamespaceReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    /// Starts reading `handle`.
    init(_ handle: FileHandle) {
        Thread { [self] in
            let all = handle.readDataToEndOfFile()
            lock.withLock { data = all }
            done.signal()
        }.start()
    }

    /// What was read, once the pipe ended or `seconds` passed (then what is known: nothing).
    func text(waiting seconds: TimeInterval) -> String {
        _ = done.wait(timeout: .now() + seconds)
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}
