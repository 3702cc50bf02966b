import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a client's data directory holds beyond its stores: whose it is, and a sign-out's erase under way.
///
/// - **Owner.** The user who first signed in there, written once (`owner`, synced). Opening it as anyone else is
///   refused with `StoreError.ownedByAnotherUser` naming both: one user's queued messages are never shown to, nor
///   sent as, another.
/// - **Erase.** Signing out erases the user's local data: first a synced marker (`.erasing`), then every file but
///   the locks, then the marker. A process killed mid-erase leaves the marker; the next open finishes the erase
///   before it reads anything, so nothing of the signed-out user's data is ever read again.
public enum ClientDirectory {
    /// The owner file's name.
    public static let ownerFileName = "owner"
    /// The erase marker's name.
    public static let erasingMarkerName = ".erasing"
    /// What an erase leaves: the directory's locks (held by the erasing owner) and the marker itself (removed last).
    static let keptByErase: Set<String> = [".lock", ".directory-lock", erasingMarkerName]

    /// The directory's owner; nil when none is written yet (a new directory, or one an older build made).
    public static func owner(of directory: URL, fileSystem: any FileSystem = PosixFileSystem()) throws -> UserID? {
        let path = directory.appendingPathComponent(ownerFileName).path
        guard fileSystem.exists(path) else { return nil }
        let handle = try fileSystem.open(path, create: false)
        defer { fileSystem.close(handle) }
        let text = String(decoding: try fileSystem.readAll(handle), as: UTF8.self)
            .trimmingWhitespace()
        return text.isEmpty ? nil : UserID(text)
    }

    /// Makes `user` the directory's owner when it has none; throws `StoreError.ownedByAnotherUser` when it is
    /// someone else's.
    public static func claim(
        _ directory: URL, for user: UserID, fileSystem: any FileSystem = PosixFileSystem()
    ) throws {
        if let owner = try owner(of: directory, fileSystem: fileSystem) {
            guard owner == user else { throw StoreError.ownedByAnotherUser(owner: owner, requested: user) }
            return
        }
        try fileSystem.replaceFile(
            at: directory.appendingPathComponent(ownerFileName).path, with: Data((user.rawValue + "\n").utf8))
    }

    /// Whether an erase was begun and not finished.
    public static func isErasing(_ directory: URL, fileSystem: any FileSystem = PosixFileSystem()) -> Bool {
        fileSystem.exists(directory.appendingPathComponent(erasingMarkerName).path)
    }

    /// Erases every file of the directory but its locks, durably, marker first: call with the directory's lock
    /// held and its stores closed. Finishes an erase a killed process began, as well.
    package static func erase(_ directory: URL, fileSystem: any FileSystem) throws {
        let marker = directory.appendingPathComponent(erasingMarkerName).path
        if !fileSystem.exists(marker) { try fileSystem.replaceFile(at: marker, with: Data("erasing\n".utf8)) }
        try removeContents(of: directory.path, fileSystem: fileSystem)
        try fileSystem.syncDirectory(directory.path)
        try fileSystem.remove(marker)
        try fileSystem.syncDirectory(directory.path)
    }

    /// Removes every file below `path` (a folder an app put there is emptied, and stays).
    private static func removeContents(of path: String, fileSystem: any FileSystem) throws {
        for name in try fileSystem.list(path) where !keptByErase.contains(name) {
            let entry = path + "/" + name
            if (try? fileSystem.list(entry)) != nil {
                try removeContents(of: entry, fileSystem: fileSystem)
                try fileSystem.syncDirectory(entry)
            } else {
                try fileSystem.remove(entry)
            }
        }
    }
}
