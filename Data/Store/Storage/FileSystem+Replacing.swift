#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FileSystem {
    /// Replaces the file at `path` by `data`, atomically: `data` goes to `path.tmp`, which is synced and renamed
    /// over `path`, so a crash leaves the old file or the new one, whole. With `syncDirectory`, the directory is
    /// synced too, which makes the rename itself durable (needed when the file is new).
    public func replaceFile(at path: String, with data: Data, syncDirectory: Bool = true) throws {
        let temporary = path + ".tmp"
        let handle = try open(temporary, create: true)
        do {
            try truncate(handle, to: 0)
            try write(data, at: 0, to: handle)
            try sync(handle)
        } catch {
            close(handle)
            throw error
        }
        close(handle)
        try rename(temporary, to: path)
        if syncDirectory { try self.syncDirectory(FilePath.parent(of: path)) }
    }
}
