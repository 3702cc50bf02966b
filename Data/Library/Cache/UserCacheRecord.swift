import CourierDomain
import CourierStore
import Foundation

/// One record of the user cache's log (`users.log`): a profile or a presence as last fetched, with when — so a
/// relaunch serves what the device has seen (offline too) and still knows how old it is. A later record of the same
/// user and kind replaces an earlier one. The body is binary (docs/storage-format.md §4).
package enum UserCacheRecord: Equatable {
    /// A profile fetched (or edited on this device) at a time.
    case profile(User, fetchedAt: Date)
    /// A presence fetched at a time.
    case presence(Presence, fetchedAt: Date)

    /// The record format this code writes.
    static let currentVersion: UInt8 = 1
    private static let profileKind: UInt8 = 1
    private static let presenceKind: UInt8 = 2

    /// The record's body: version byte, kind byte, then the fields.
    package func encoded() -> Data {
        var writer = BinaryRecordWriter(capacity: 96)
        writer.byte(Self.currentVersion)
        switch self {
        case .profile(let user, let fetchedAt):
            writer.byte(Self.profileKind)
            writer.string(user.id.rawValue)
            writer.string(user.displayName)
            writer.double(fetchedAt.timeIntervalSinceReferenceDate)
        case .presence(let presence, let fetchedAt):
            writer.byte(Self.presenceKind)
            writer.string(presence.userID.rawValue)
            writer.byte(presence.isOnline ? 1 : 0)
            writer.optional(presence.lastSeen) { $0.double($1.timeIntervalSinceReferenceDate) }
            writer.double(fetchedAt.timeIntervalSinceReferenceDate)
        }
        return writer.data
    }

    /// Reads a stored record; throws for bytes that are not a record of a version this code reads.
    package static func decode(_ body: Data) throws -> UserCacheRecord {
        try BinaryRecordReader.reading(body) { reader in
            _ = try reader.version(from: currentVersion, through: currentVersion)
            switch try reader.byte() {
            case profileKind:
                let user = User(id: UserID(try reader.string()), displayName: try reader.string())
                return .profile(user, fetchedAt: Date(timeIntervalSinceReferenceDate: try reader.double()))
            case presenceKind:
                let id = UserID(try reader.string())
                let online = try reader.byte() == 1
                let lastSeen = try reader.optional { Date(timeIntervalSinceReferenceDate: try $0.double()) }
                let presence = Presence(userID: id, isOnline: online, lastSeen: lastSeen)
                return .presence(presence, fetchedAt: Date(timeIntervalSinceReferenceDate: try reader.double()))
            default:
                throw RecordFormatError(description: "user cache record kind")
            }
        }
    }
}
