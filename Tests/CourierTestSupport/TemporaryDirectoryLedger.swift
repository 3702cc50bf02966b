import Foundation

/// The temporary directories one test made, removed when it ends: what `.removesTemporaryDirectories` keeps for
/// each test it runs, reached by the test's tasks through `current`.
final class TemporaryDirectoryLedger: @unchecked Sendable {
    /// The ledger of the test running in this task, if it runs under `.removesTemporaryDirectories`.
    @TaskLocal static var current: TemporaryDirectoryLedger?

    private let lock = NSLock()
    private var urls: [URL] = []

    /// Notes `url` for removal when the test ends.
    func add(_ url: URL) { lock.withLock { urls.append(url) } }

    /// Removes every directory noted (trying again while something still writes in one); returns the ones that are
    /// still there.
    func removeAll() -> [URL] {
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
