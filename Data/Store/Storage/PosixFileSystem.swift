import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real disk, through POSIX calls: `open`, `pread`/`pwrite`, `fdatasync`, `ftruncate`, `rename`, `flock`.
///
/// What it makes is its user's alone, whatever the process's umask: files `0600`, directories `0700`. A file an
/// older build left readable by others (`0644`, or `0666` under a loose umask) is tightened to `0600` when opened; an
/// existing directory is left as it is unless `restrictToOwner` is asked (a data directory an older build made).
///
/// Every failure becomes `StoreError.io("<call> <path>: <strerror>")`.
public struct PosixFileSystem: FileSystem {
    /// The data-protection class of the files and directories it creates (Apple's mobile platforms only).
    public let protection: FileProtection

    /// The real file system; what it creates carries `protection` where the platform has data protection.
    public init(protection: FileProtection = .completeUntilFirstUserAuthentication) {
        self.protection = protection
    }

    // MARK: - Files

    /// Opens the regular file at `path` for reading and writing (creating it `0600` when `create`). A symbolic link
    /// at `path` is never followed (`O_NOFOLLOW`: whoever planted it does not choose which file is written or
    /// `chmod`ed), and anything but a regular file (a FIFO, a device, a directory) is refused: both are
    /// `StoreError.io` naming the path.
    public func open(_ path: String, create: Bool) throws -> FileSystemHandle {
        // O_NONBLOCK: a FIFO planted at `path` must not block the open; it is refused just below.
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (create ? O_CREAT : 0)
        let descriptor = retryingInterrupts { posixOpen(path, flags, Self.fileMode) }
        guard descriptor >= 0 else {
            if errno == ELOOP { throw StoreError.io("open \(path): a symbolic link, not followed") }
            throw Self.failure("open \(path)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            posixClose(descriptor)
            throw StoreError.io("open \(path): not a regular file")
        }
        // Back to blocking I/O for a regular file (where O_NONBLOCK changes nothing anyway, said once for clarity).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        if info.st_mode & 0o777 != Self.fileMode, fchmod(descriptor, Self.fileMode) != 0 {
            let failure = Self.failure("chmod \(path)")
            posixClose(descriptor)
            throw failure
        }
        if create {
            do {
                try protect(path)
            } catch {
                posixClose(descriptor)
                throw error
            }
        }
        return FileSystemHandle(rawValue: descriptor)
    }

    public func close(_ handle: FileSystemHandle) {
        posixClose(handle.rawValue)
    }

    public func readAll(_ handle: FileSystemHandle) throws -> Data {
        try read(handle, from: 0)
    }

    public func read(_ handle: FileSystemHandle, from offset: Int) throws -> Data {
        let size = max(0, try size(of: handle) - offset)
        var data = Data(count: size)
        var done = 0
        try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            while done < size {
                let count = retryingInterrupts {
                    pread(handle.rawValue, base + done, size - done, off_t(offset + done))
                }
                if count < 0 { throw Self.failure("read fd \(handle.rawValue)") }
                if count == 0 { break }  // the file shrank meanwhile: return what is there
                done += count
            }
        }
        if done < size { data.count = done }
        return data
    }

    public func write(_ data: Data, at offset: Int, to handle: FileSystemHandle) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let count = retryingInterrupts {
                    pwrite(handle.rawValue, base + done, buffer.count - done, off_t(offset + done))
                }
                if count < 0 { throw Self.failure("write fd \(handle.rawValue)") }
                done += count
            }
        }
    }

    public func sync(_ handle: FileSystemHandle) throws {
        #if canImport(Glibc)
            let result = retryingInterrupts { fdatasync(handle.rawValue) }
        #else
            let result = retryingInterrupts { fsync(handle.rawValue) }
        #endif
        if result != 0 { throw Self.failure("fdatasync fd \(handle.rawValue)") }
    }

    public func truncate(_ handle: FileSystemHandle, to size: Int) throws {
        if retryingInterrupts({ ftruncate(handle.rawValue, off_t(size)) }) != 0 {
            throw Self.failure("ftruncate fd \(handle.rawValue)")
        }
    }

    public func size(of handle: FileSystemHandle) throws -> Int {
        var info = stat()
        guard fstat(handle.rawValue, &info) == 0 else { throw Self.failure("fstat fd \(handle.rawValue)") }
        return Int(info.st_size)
    }

    public func tryLock(_ handle: FileSystemHandle) throws -> Bool {
        if retryingInterrupts({ flock(handle.rawValue, LOCK_EX | LOCK_NB) }) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw Self.failure("flock fd \(handle.rawValue)")
    }

    public func unlock(_ handle: FileSystemHandle) throws {
        if retryingInterrupts({ flock(handle.rawValue, LOCK_UN) }) != 0 {
            throw Self.failure("flock fd \(handle.rawValue)")
        }
    }

    public func lockWaiting(_ handle: FileSystemHandle) throws {
        if retryingInterrupts({ flock(handle.rawValue, LOCK_EX) }) != 0 {
            throw Self.failure("flock fd \(handle.rawValue)")
        }
    }

    // MARK: - Directories

    public func rename(_ source: String, to destination: String) throws {
        if posixRename(source, destination) != 0 { throw Self.failure("rename \(source) to \(destination)") }
    }

    public func syncDirectory(_ path: String) throws {
        let descriptor = retryingInterrupts { posixOpen(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        guard descriptor >= 0 else { throw Self.failure("open directory \(path)") }
        defer { posixClose(descriptor) }
        if retryingInterrupts({ fsync(descriptor) }) != 0 { throw Self.failure("fsync directory \(path)") }
    }

    public func createDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw StoreError.io("mkdir \(path): not a directory") }
            return
        }
        let parent = FilePath.parent(of: path)
        if !parent.isEmpty, parent != path, !exists(parent) { try createDirectory(parent) }
        // mkdir's mode passes through the umask; chmod then sets it exactly.
        if mkdir(path, Self.directoryMode) != 0, errno != EEXIST { throw Self.failure("mkdir \(path)") }
        if chmod(path, Self.directoryMode) != 0 { throw Self.failure("chmod \(path)") }
        try protect(path)
    }

    /// Gives the file or directory at `path` the protection class (a no-op without data protection).
    private func protect(_ path: String) throws {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            do {
                try FileManager.default.setAttributes(
                    [.protectionKey: protection.foundationValue], ofItemAtPath: path)
            } catch {
                throw StoreError.io("protect \(path): \(error.localizedDescription)")
            }
        #endif
    }

    public func restrictToOwner(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        let isShared = info.st_mode & S_ISVTX != 0 || info.st_uid != geteuid()
        guard !isShared, info.st_mode & 0o777 != Self.directoryMode else { return }
        if chmod(path, Self.directoryMode) != 0 { throw Self.failure("chmod \(path)") }
    }

    public func refuseSharedDirectory(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Self.failure("stat \(path)") }
        if info.st_uid != geteuid() {
            throw StoreError.io("\(path): owned by another user (uid \(info.st_uid)); a data directory must be yours")
        }
        if info.st_mode & 0o022 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw StoreError.io(
                "\(path): writable by others (mode 0\(mode)); a data directory must be yours alone (chmod 700)")
        }
    }

    /// Files: read and write for their owner only.
    static let fileMode: mode_t = 0o600
    /// Directories: their owner only.
    static let directoryMode: mode_t = 0o700

    public func remove(_ path: String) throws {
        if unlink(path) != 0 { throw Self.failure("unlink \(path)") }
    }

    public func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    public func list(_ directory: String) throws -> [String] {
        guard let stream = opendir(directory) else { throw Self.failure("opendir \(directory)") }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public func lockDirectory(_ path: String) throws -> FileSystemHandle? {
        let descriptor = retryingInterrupts { posixOpen(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        guard descriptor >= 0 else { throw Self.failure("open directory \(path)") }
        if retryingInterrupts({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 {
            return FileSystemHandle(rawValue: descriptor)
        }
        let failure = errno == EWOULDBLOCK ? nil : Self.failure("flock directory \(path)")
        posixClose(descriptor)
        if let failure { throw failure }
        return nil
    }

    public func isCurrent(_ handle: FileSystemHandle, at path: String) -> Bool {
        sizeIfCurrent(handle, at: path) != nil
    }

    public func sizeIfCurrent(_ handle: FileSystemHandle, at path: String) -> Int? {
        var open = stat()
        var named = stat()
        guard fstat(handle.rawValue, &open) == 0, stat(path, &named) == 0 else { return nil }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino ? Int(open.st_size) : nil
    }

    // MARK: - Errors

    private static func failure(_ operation: String) -> StoreError {
        let code = errno
        return StoreError.io("\(operation): \(String(cString: strerror(code)))")
    }

    private func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }
}

// MARK: - C calls whose names the methods above shadow

private func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }

private func posixClose(_ descriptor: Int32) { _ = close(descriptor) }

private func posixRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
