import CourierData
import CourierDomain
import Foundation

/// An in-memory disk behind the storage engine's `FileSystem` seam that keeps the seam's durability promises and
/// nothing more, so a simulation can cut the power at any instant (docs/design.md §8).
///
/// - Each file has durable content and pending (unsynced) writes and truncations; `sync(handle)` makes that file's
///   content durable.
/// - Creating, renaming and removing a file changes the directory at once for readers, but the change becomes
///   durable only at `syncDirectory` of the directory holding it. A power cut loses the directory changes not yet
///   synced — or, with a seeded generator, may keep a random prefix of them (a rename at once, whole), as a
///   journaling file system that committed its journal before the power went: a rename can survive a crash that
///   the renamed file's unsynced content does not.
/// - Directories themselves are durable as soon as they are created (a modelling choice: journaling file systems
///   commit a `mkdir` with the first sync inside it; the storage engine does not sync parents of its directory).
/// - `crash()` is a power cut: every change not durable is dropped, every handle and lock released. With a seeded
///   generator, a crash may instead keep a random prefix of a file's pending changes, the last write torn to a
///   random byte prefix — as a disk that wrote some sectors before the power went.
/// - `cutPower(afterOperations:)` makes a later operation fail mid-work: from then on every call throws, as a
///   dead disk would, until `crash()` restores the power.
///
/// Handle numbers are never reused, so an object left over from before a crash cannot write into a new file.
/// Thread-safe; one lock guards everything.
public final class SimulatedFileSystem: FileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private let random: LockedRandom?
    private var files: [Int: SimulatedFile] = [:]
    /// The namespace readers see: path → file number.
    private var entries: [String: Int] = [:]
    /// The namespace a power cut leaves.
    private var durableEntries: [String: Int] = [:]
    /// Directory changes since the last sync of their directory, in order; one element per create, rename or
    /// remove (a rename is two changes that a crash keeps or loses together). A nil number removes the name.
    private var unsyncedEntryChanges: [[(path: String, number: Int?)]] = []
    private var directories: Set<String> = ["/"]
    private var handles: [Int32: Int] = [:]
    private var lockOwners: [Int: Int32] = [:]
    /// Directory path → the handle that locks it.
    private var directoryLocks: [String: Int32] = [:]
    /// Handle → the directory it was opened on, for directory locks.
    private var directoryHandles: [Int32: String] = [:]
    private var full = false
    private var writesBeforeFull: Int?
    private var nextFile = 1
    private var nextHandle: Int32 = 3
    private var operationsBeforePowerCut: Int?
    private var poweredOff = false

    /// Creates an empty disk. With `tornWrites`, a crash may keep a random prefix of the unsynced changes.
    public init(tornWrites random: LockedRandom? = nil) {
        self.random = random
    }

    // MARK: - Power

    /// Whether the power is cut: every operation throws until `crash()`.
    public var isPoweredOff: Bool { lock.withLock { poweredOff } }

    /// Lets `count` more changing operations (write, sync, truncate, rename, remove, directory sync, creating
    /// open) succeed; the one after fails and cuts the power.
    public func cutPower(afterOperations count: Int) {
        lock.withLock { operationsBeforePowerCut = max(0, count) }
    }

    /// A power cut and reboot: drops everything not durable (or, with torn writes, keeps a random prefix of the
    /// directory changes and of each file's changes), releases every handle and lock, and restores the power.
    /// Returns what was lost.
    @discardableResult
    public func crash() -> SimulatedCrash {
        lock.withLock {
            var outcome = SimulatedCrash()
            var survivor = durableEntries
            var keptEntryChanges = 0
            if let random, !unsyncedEntryChanges.isEmpty, random.withGenerator({ Bool.random(using: &$0) }) {
                keptEntryChanges = random.withGenerator { Int.random(in: 0...unsyncedEntryChanges.count, using: &$0) }
            }
            for change in unsyncedEntryChanges.prefix(keptEntryChanges).joined() {
                survivor[change.path] = change.number
            }
            outcome.entryChangesKept = keptEntryChanges
            outcome.entriesReverted =
                Set(entries.keys).union(survivor.keys)
                .filter { entries[$0] != survivor[$0] }.count
            entries = survivor
            durableEntries = survivor
            unsyncedEntryChanges.removeAll()
            let live = Set(entries.values)
            files = files.filter { live.contains($0.key) }
            for number in files.keys.sorted() {
                guard var file = files[number], !file.pending.isEmpty else { continue }
                let count = file.pending.count
                var kept = 0
                var torn: Int?
                if let random, random.withGenerator({ Bool.random(using: &$0) }) {
                    kept = random.withGenerator { Int.random(in: 0...count, using: &$0) }
                    if kept > 0, case .write(let data, _) = file.pending[kept - 1], !data.isEmpty,
                        random.withGenerator({ Bool.random(using: &$0) })
                    {
                        torn = random.withGenerator { Int.random(in: 0..<data.count, using: &$0) }
                    }
                }
                outcome.changesLost += file.crash(keeping: kept, tornBytes: torn)
                outcome.changesKept += kept
                if torn != nil { outcome.writesTorn += 1 }
                files[number] = file
            }
            handles.removeAll()
            lockOwners.removeAll()
            directoryLocks.removeAll()
            directoryHandles.removeAll()
            poweredOff = false
            operationsBeforePowerCut = nil
            return outcome
        }
    }

    /// Whether the disk is full: a write that would grow a file fails with "No space left on device" (nothing of it
    /// lands) until the disk is no longer full.
    public var isFull: Bool {
        get { lock.withLock { full } }
        set {
            lock.withLock {
                full = newValue
                writesBeforeFull = nil
            }
        }
    }

    /// Lets `count` more growing writes succeed; the disk is full from the one after.
    public func fillUp(afterWrites count: Int) {
        lock.withLock { writesBeforeFull = max(0, count) }
    }

    // MARK: - Inspection

    /// What a reader sees in the file at `path` now, or nil when there is none.
    public func contents(of path: String) -> Data? {
        lock.withLock { entries[normalized(path)].flatMap { files[$0]?.current } }
    }

    /// What the file at `path` would hold after a power cut now (without torn writes), or nil when it would not
    /// exist.
    public func durableContents(of path: String) -> Data? {
        lock.withLock { durableEntries[normalized(path)].flatMap { files[$0]?.durable } }
    }

    /// How many handles are open.
    public var openHandleCount: Int { lock.withLock { handles.count } }

    // MARK: - FileSystem: files

    public func open(_ path: String, create: Bool) throws -> FileSystemHandle {
        try lock.withLock {
            let path = normalized(path)
            try checkPower("open \(path)")
            if directories.contains(path) { throw StoreError.io("open \(path): Is a directory") }
            let number: Int
            if let existing = entries[path] {
                number = existing
            } else {
                guard create else { throw StoreError.io("open \(path): No such file or directory") }
                guard directories.contains(parent(of: path)) else {
                    throw StoreError.io("open \(path): No such file or directory")
                }
                try spendOperation("open \(path)")
                number = nextFile
                nextFile += 1
                files[number] = SimulatedFile()
                entries[path] = number
                unsyncedEntryChanges.append([(path, number)])
            }
            let handle = nextHandle
            nextHandle += 1
            handles[handle] = number
            return FileSystemHandle(rawValue: handle)
        }
    }

    public func close(_ handle: FileSystemHandle) {
        lock.withLock {
            if let directory = directoryHandles.removeValue(forKey: handle.rawValue) {
                if directoryLocks[directory] == handle.rawValue { directoryLocks[directory] = nil }
                return
            }
            guard let number = handles.removeValue(forKey: handle.rawValue) else { return }
            if lockOwners[number] == handle.rawValue { lockOwners[number] = nil }
        }
    }

    public func readAll(_ handle: FileSystemHandle) throws -> Data {
        try lock.withLock {
            try checkPower("read fd \(handle.rawValue)")
            return try file(of: handle).current
        }
    }

    public func write(_ data: Data, at offset: Int, to handle: FileSystemHandle) throws {
        let refused = lock.withLock { () -> Bool in
            let size = handles[handle.rawValue].flatMap { files[$0]?.current.count } ?? 0
            guard size < offset + data.count else { return false }
            if let left = writesBeforeFull {
                if left == 0 { (full, writesBeforeFull) = (true, nil) } else { writesBeforeFull = left - 1 }
            }
            return full
        }
        if refused { throw StoreError.io("write fd \(handle.rawValue): No space left on device") }
        try mutate(handle, "write") { $0.write(data, at: offset) }
    }

    public func sync(_ handle: FileSystemHandle) throws {
        try mutate(handle, "fdatasync") { $0.sync() }
    }

    public func truncate(_ handle: FileSystemHandle, to size: Int) throws {
        guard size >= 0 else { throw StoreError.io("ftruncate fd \(handle.rawValue): Invalid argument") }
        try mutate(handle, "ftruncate") { $0.truncate(to: size) }
    }

    public func size(of handle: FileSystemHandle) throws -> Int {
        try lock.withLock {
            try checkPower("fstat fd \(handle.rawValue)")
            return try file(of: handle).current.count
        }
    }

    public func tryLock(_ handle: FileSystemHandle) throws -> Bool {
        try lock.withLock {
            try checkPower("flock fd \(handle.rawValue)")
            guard let number = handles[handle.rawValue] else {
                throw StoreError.io("flock fd \(handle.rawValue): Bad file descriptor")
            }
            if let owner = lockOwners[number], owner != handle.rawValue { return false }
            lockOwners[number] = handle.rawValue
            return true
        }
    }

    public func unlock(_ handle: FileSystemHandle) throws {
        try lock.withLock {
            try checkPower("flock fd \(handle.rawValue)")
            guard let number = handles[handle.rawValue] else {
                throw StoreError.io("flock fd \(handle.rawValue): Bad file descriptor")
            }
            if lockOwners[number] == handle.rawValue { lockOwners[number] = nil }
        }
    }

    // MARK: - FileSystem: directories

    public func rename(_ source: String, to destination: String) throws {
        try lock.withLock {
            let (source, destination) = (normalized(source), normalized(destination))
            try checkPower("rename \(source) to \(destination)")
            guard let number = entries[source] else {
                throw StoreError.io("rename \(source) to \(destination): No such file or directory")
            }
            guard directories.contains(parent(of: destination)), !directories.contains(destination) else {
                throw StoreError.io("rename \(source) to \(destination): No such file or directory")
            }
            try spendOperation("rename \(source) to \(destination)")
            entries[source] = nil
            entries[destination] = number
            unsyncedEntryChanges.append([(source, nil), (destination, number)])
        }
    }

    public func syncDirectory(_ path: String) throws {
        try lock.withLock {
            let path = normalized(path)
            try checkPower("fsync directory \(path)")
            guard directories.contains(path) else { throw StoreError.io("open directory \(path): No such file") }
            try spendOperation("fsync directory \(path)")
            for name in durableEntries.keys where parent(of: name) == path && entries[name] == nil {
                durableEntries[name] = nil
            }
            for (name, number) in entries where parent(of: name) == path { durableEntries[name] = number }
            unsyncedEntryChanges = unsyncedEntryChanges.map { $0.filter { parent(of: $0.path) != path } }
                .filter { !$0.isEmpty }
        }
    }

    public func createDirectory(_ path: String) throws {
        try lock.withLock {
            let path = normalized(path)
            try checkPower("mkdir \(path)")
            var chain: [String] = []
            var next = path
            while !directories.contains(next) {
                if entries[next] != nil { throw StoreError.io("mkdir \(path): File exists") }
                chain.append(next)
                next = parent(of: next)
            }
            directories.formUnion(chain)
        }
    }

    public func remove(_ path: String) throws {
        try lock.withLock {
            let path = normalized(path)
            try checkPower("unlink \(path)")
            guard entries[path] != nil else { throw StoreError.io("unlink \(path): No such file or directory") }
            try spendOperation("unlink \(path)")
            entries[path] = nil
            unsyncedEntryChanges.append([(path, nil)])
        }
    }

    public func exists(_ path: String) -> Bool {
        lock.withLock {
            let path = normalized(path)
            return entries[path] != nil || directories.contains(path)
        }
    }

    public func list(_ directory: String) throws -> [String] {
        try lock.withLock {
            let directory = normalized(directory)
            try checkPower("opendir \(directory)")
            guard directories.contains(directory) else {
                throw StoreError.io("opendir \(directory): No such file or directory")
            }
            let names = (Array(entries.keys) + directories).filter { $0 != directory && parent(of: $0) == directory }
            return names.map { ($0 as NSString).lastPathComponent }.sorted()
        }
    }

    public func lockDirectory(_ path: String) throws -> FileSystemHandle? {
        try lock.withLock {
            let path = normalized(path)
            try checkPower("open directory \(path)")
            guard directories.contains(path) else { throw StoreError.io("open directory \(path): No such file") }
            guard directoryLocks[path] == nil else { return nil }
            let handle = nextHandle
            nextHandle += 1
            directoryLocks[path] = handle
            directoryHandles[handle] = path
            return FileSystemHandle(rawValue: handle)
        }
    }

    public func isCurrent(_ handle: FileSystemHandle, at path: String) -> Bool {
        lock.withLock { handles[handle.rawValue].map { entries[normalized(path)] == $0 } ?? false }
    }

    // MARK: - Private

    private func mutate(_ handle: FileSystemHandle, _ call: String, _ change: (inout SimulatedFile) -> Void) throws {
        try lock.withLock {
            let operation = "\(call) fd \(handle.rawValue)"
            try checkPower(operation)
            guard let number = handles[handle.rawValue], var file = files[number] else {
                throw StoreError.io("\(operation): Bad file descriptor")
            }
            try spendOperation(operation)
            change(&file)
            files[number] = file
        }
    }

    /// Call with the lock held, like the helpers below.
    private func file(of handle: FileSystemHandle) throws -> SimulatedFile {
        guard let number = handles[handle.rawValue], let file = files[number] else {
            throw StoreError.io("fd \(handle.rawValue): Bad file descriptor")
        }
        return file
    }

    private func checkPower(_ operation: String) throws {
        if poweredOff { throw StoreError.io("\(operation): the power is cut (simulated)") }
    }

    /// Counts one changing operation against a scheduled power cut; the one past the budget fails.
    private func spendOperation(_ operation: String) throws {
        guard let remaining = operationsBeforePowerCut else { return }
        if remaining == 0 {
            poweredOff = true
            operationsBeforePowerCut = nil
            throw StoreError.io("\(operation): the power is cut (simulated)")
        }
        operationsBeforePowerCut = remaining - 1
    }

    private func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    private func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
