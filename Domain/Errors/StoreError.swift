/// Why a durable store refused an operation. A refused operation changed nothing.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A record with this id is already stored.
    case duplicateID(String)
    /// One record is larger than the store allows.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The store holds as many records as it may; nothing is evicted to make room.
    case capacityReached(limit: Int)
    /// Another owner — another process, or an earlier open in this one — holds the data directory or the store at
    /// `path`.
    case locked(path: String)
    /// The file system failed (`errno` text included).
    case io(String)
    /// The file is not a store of this kind or version.
    case incompatible(String)
    /// The change would move a status backwards.
    case invalidTransition(from: MessageStatus, to: MessageStatus)
    /// The data directory belongs to `owner`, the user who first signed in there, and `requested` asked for it: its
    /// data is never shown to, nor sent as, someone else.
    case ownedByAnotherUser(owner: UserID, requested: UserID)

    public var description: String {
        switch self {
        case .duplicateID(let id): "a message with id \(id) is already stored"
        case .recordTooLarge(let bytes, let limit): "the message is too large (\(bytes) bytes; the limit is \(limit))"
        case .capacityReached(let limit): "the queue is full (\(limit) messages); send or delete some first"
        case .locked(let path): "\(path) is in use by another owner (another process, or an earlier open in this one)"
        case .io(let text): "storage error: \(text)"
        case .incompatible(let text): "incompatible store: \(text)"
        case .invalidTransition(let from, let to): "a message cannot go from \(from.rawValue) to \(to.rawValue)"
        case .ownedByAnotherUser(let owner, let requested):
            "the data directory belongs to \(owner), not \(requested) (its data is never shown to, nor sent as, "
                + "someone else)"
        }
    }
}
