import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The right to send from a data directory's shared outbox: one process at a time holds it (docs/design.md §2.8).
///
/// The app holds it while it is in the foreground; an extension that finds it free (the app closed or suspended)
/// may take it for its short life and send. It is an exclusive `flock` on a file of its own (`client/outbox.lease`),
/// so the kernel lets it go when its holder dies: a killed holder never blocks the others. Whoever takes it next
/// sends again, under the same ids, what the dead holder left `sending` (`DurableOutbox`).
public final class OutboxLease: @unchecked Sendable {
    /// The lease file.
    public let path: String
    private let fileSystem: any FileSystem
    /// Guards `handle`; an `NSLock` rather than `Synchronization.Mutex`, which needs macOS 15 / iOS 18.
    private let lock = Lock()
    private var handle: FileSystemHandle?

    /// A lease on the file at `path` (created when missing), not yet taken.
    public init(path: String, fileSystem: any FileSystem = PosixFileSystem()) {
        self.path = path
        self.fileSystem = fileSystem
    }

    deinit { release() }

    /// Whether this object holds the lease.
    public var isHeld: Bool { lock.withLock { handle != nil } }

    /// Takes the lease without waiting: true when this object holds it (also when it did already), false when
    /// another holder — in this process or another — has it. Throws `StoreError.io` when the file cannot be opened.
    public func tryTake() throws -> Bool {
        try lock.withLock {
            if handle == nil { handle = try fileSystem.openLocked(path) }
            return handle != nil
        }
    }

    /// Lets the lease go; another process may take it at once. Releasing a lease not held is harmless.
    public func release() {
        lock.withLock {
            guard let held = handle else { return }
            fileSystem.close(held)
            handle = nil
        }
    }
}
