import CourierData
import CourierDomain
import Foundation

/// Which user a data directory belongs to: the user who first signed in there, written once to `client/owner`.
/// Its messages are never shown to, nor sent as, someone else: opening it as another user is refused
/// (`StoreError.ownedByAnotherUser`, the driver's exit status 3); `--fresh` starts over.
enum DataDirectoryOwner {
    /// The owner file's path in `directory`.
    static func path(in directory: URL) -> String {
        directory.appendingPathComponent("client/owner").path
    }

    /// The user to sign in as: `requested` when the directory is new or already theirs, the owner when none is
    /// requested. A directory made before owners were written belongs to `fallback`. Throws
    /// `OwnerError.ownedByAnother` when `requested` is someone else, and what the file system throws.
    static func claim(
        _ directory: URL, requested: UserID?, fallback: UserID, fileSystem: any FileSystem
    ) throws -> UserID {
        let path = path(in: directory)
        if fileSystem.exists(path) {
            let handle = try fileSystem.open(path, create: false)
            defer { fileSystem.close(handle) }
            let text = String(decoding: try fileSystem.readAll(handle), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let owner = text.isEmpty ? fallback : UserID(text)
            if let requested, requested != owner { throw OwnerError.ownedByAnother(owner: owner, requested: requested) }
            return owner
        }
        let owner = requested ?? fallback
        try fileSystem.replaceFile(at: path, with: Data((owner.rawValue + "\n").utf8))
        return owner
    }

    /// Why a directory cannot be opened for a user.
    enum OwnerError: Error, Equatable, CustomStringConvertible {
        /// The directory belongs to `owner`, and `requested` asked for it.
        case ownedByAnother(owner: UserID, requested: UserID)

        var description: String {
            switch self {
            case .ownedByAnother(let owner, let requested):
                "the data directory belongs to \(owner), not \(requested) (its data is never shown to, nor sent as, "
                    + "someone else; --fresh starts over)"
            }
        }
    }
}
