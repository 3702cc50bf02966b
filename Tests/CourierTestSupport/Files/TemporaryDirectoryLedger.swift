import Foundation

/// The temporary directories one test made, removed when it ends, and the fixtures to close before (they hold files
/// open in them): what `.removesTemporaryDirectories` keeps for each test it runs, reached by the test's tasks
/// through `current`.
final class TemporaryDirectoryLedger: @unchecked Sendable {
    /// The ledger of the test running in this task, if it runs under `.removesTemporaryDirectories`.
    @TaskLocal static var current: TemporaryDirectoryLedger?

    private let lock = NSLock()
    private var urls: [URL] = []
    private var closers: [@Sendable () async -> Void] = []

    /// Notes `url` for removal when the test ends.
    func add(_ url: URL) { lock.withLock { urls.append(url) } }

    /// Notes `close` to run when the test ends, before the directories go.
    func addCloser(_ close: @escaping @Sendable () async -> Void) { lock.withLock { closers.append(close) } }

    /// Closes what was noted, the latest first, then removes every directory noted (trying again while something
    /// still writes in one); returns the ones that are still there.
    func end() async -> [URL] {
        for close in lock.withLock({ closers.reversed() }) { await close() }
        let noted = lock.withLock { urls }
        return noted.filter { url in
            for _ in 0..<5 {
                try? FileManager.default.removeItem(at: url)
                if !FileManager.default.fileExists(atPath: url.path) { return false }
            }
            return true
        }
    }
}
