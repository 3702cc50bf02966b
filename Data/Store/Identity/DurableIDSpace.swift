import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Hands out message and write ids that no restart, lost settings file or other seed can ever repeat: an
/// `IDNamespace` created once with the client's stores, and a counter whose next block is reserved durably before
/// any id of the block is handed out (layout in docs/storage-format.md, reasoning in docs/reliability.md).
///
/// A kill after an id was used but before anything else was saved cannot repeat it: the file already says the
/// whole block is used, so the next open starts after it (the rest of the block is skipped, never reused).
/// Reservations happen at the same points of a replayed run, so a run on a new directory replays its ids exactly.
public final class DurableIDSpace: @unchecked Sendable {
    /// How many ids one durable write reserves.
    public static let blockSize: UInt64 = 1024

    /// The namespace every id of this data directory comes from.
    public let namespace: IDNamespace

    private let path: String
    private let fileSystem: any FileSystem
    private let logger: Logger
    private let lock = Lock()
    private var next: UInt64
    private var reservedThrough: UInt64

    /// Opens the id file at `path`. A missing file is created with `makeNamespace()`; a damaged one is replaced by a
    /// new namespace from the system's random source (a fresh namespace cannot repeat an id, whatever was lost), and
    /// the logger says so. Throws `StoreError.io` when the file cannot be written.
    public init(
        path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent,
        makeNamespace: () -> IDNamespace = IDNamespace.random
    ) throws {
        self.path = path
        self.fileSystem = fileSystem
        self.logger = logger
        if let stored = try Self.read(path: path, fileSystem: fileSystem, logger: logger) {
            namespace = stored.namespace
            next = stored.reservedThrough
            reservedThrough = stored.reservedThrough
        } else {
            namespace = fileSystem.exists(path) ? .random() : makeNamespace()
            next = 0
            reservedThrough = 0
            try Self.write(
                IDSpaceFile(namespace: namespace, reservedThrough: 0), path: path, fileSystem: fileSystem)
        }
    }

    /// Creates the file with `namespace` unless it exists (a data directory gets its namespace once, when created).
    public static func create(path: String, fileSystem: any FileSystem, namespace: IDNamespace) throws {
        guard !fileSystem.exists(path) else { return }
        try write(IDSpaceFile(namespace: namespace, reservedThrough: 0), path: path, fileSystem: fileSystem)
    }

    /// The next id. Reserves a new block durably first when the current one is used up; when that write fails, the
    /// id comes from the system's random source instead (still unique; only the replay is lost) and the logger
    /// says so.
    public func nextID() -> MessageID {
        lock.withLock {
            if next == reservedThrough {
                do {
                    next = try reserveBlock()
                    reservedThrough = next + Self.blockSize
                } catch {
                    logger.log(.error, "ids: cannot reserve ids in \(path) (\(error)); using a random id")
                    return IDGenerator.random.next()
                }
            }
            defer { next += 1 }
            return namespace.id(at: next)
        }
    }

    /// Reserves the next block under a lock on `<path>.lock`, from what the file says now: another process (an app
    /// extension's one-shot send) may have reserved blocks since this one read it, and two processes must never
    /// count through one block. Returns the block's first counter value. Alone, that is `reservedThrough`, so a
    /// replayed run's ids stay the same.
    private func reserveBlock() throws -> UInt64 {
        let appendLock = try fileSystem.open(path + ".lock", create: true)
        defer { fileSystem.close(appendLock) }
        try fileSystem.lockWaiting(appendLock)
        let stored = try Self.read(path: path, fileSystem: fileSystem, logger: logger)
        var start = reservedThrough
        if let stored, stored.namespace == namespace { start = max(start, stored.reservedThrough) }
        try Self.write(
            IDSpaceFile(namespace: namespace, reservedThrough: start + Self.blockSize), path: path,
            fileSystem: fileSystem)
        return start
    }

    /// An `IDGenerator` over this space.
    public var generator: IDGenerator { IDGenerator { [self] in nextID() } }

    // MARK: - File

    private static func read(path: String, fileSystem: any FileSystem, logger: Logger) throws -> IDSpaceFile? {
        guard fileSystem.exists(path) else { return nil }
        let handle = try fileSystem.open(path, create: false)
        defer { fileSystem.close(handle) }
        let data = try fileSystem.readAll(handle)
        do {
            return try IDSpaceFile(data)
        } catch {
            logger.log(.warning, "ids: \(path) is damaged (\(error)); starting a new random namespace")
            return nil
        }
    }

    /// Atomically: a synced temporary file renamed over the old one, then the directory synced.
    private static func write(_ file: IDSpaceFile, path: String, fileSystem: any FileSystem) throws {
        try fileSystem.replaceFile(at: path, with: file.encoded())
    }
}
