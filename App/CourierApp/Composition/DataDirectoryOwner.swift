import CourierData
import CourierDomain
import CourierOneShot
import Foundation

/// Which user the driver signs in as on a data directory: its client folder's owner (`ClientDirectory`, the user
/// who first signed in there), or the one `--user` asks for on a new directory. Asking for anyone else is refused
/// (`StoreError.ownedByAnotherUser`, the driver's exit status 3); `--fresh` starts over.
enum DataDirectoryOwner {
    /// The user to sign in as: `requested` when the directory is new or already theirs, the owner when none is
    /// requested. A directory made before owners were written belongs to `fallback`. Throws
    /// `StoreError.ownedByAnotherUser` when `requested` is someone else, and what the file system throws.
    static func claim(
        _ directory: URL, requested: UserID?, fallback: UserID, fileSystem: any FileSystem
    ) throws -> UserID {
        let client = directory.appendingPathComponent("client")
        let owner = try ClientDirectory.owner(of: client, fileSystem: fileSystem) ?? requested ?? fallback
        if let requested, requested != owner { throw StoreError.ownedByAnotherUser(owner: owner, requested: requested) }
        try ClientDirectory.claim(client, for: owner, fileSystem: fileSystem)
        return owner
    }
}
