/// Why a durable store refused an operation. A refused operation changed nothing.
///
/// A struct, as `DeliveryError` is, so that a later kind breaks no app's `switch`: match one error by value
/// (`catch StoreError.locked(path: p)`, `error == .io("…")`) or a kind whatever it carries by `code`, with a
/// `default` (`catch let error as StoreError where error.code == .locked`); what some kinds carry is a property.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds, with what each carries: the package's own, so that its `switch`es stay exhaustive.
    package enum Kind: Hashable, Sendable {
        case duplicateID(String)
        case recordTooLarge(bytes: Int, limit: Int)
        case capacityReached(limit: Int)
        case locked(path: String)
        case io(String)
        case incompatible(String)
        case invalidTransition(from: MessageStatus, to: MessageStatus)
        case ownedByAnotherUser(owner: UserID, requested: UserID)
    }

    /// The kind of a store error, without what it carries. New codes may be added: a `switch` over one has a
    /// `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A record with this id is already stored.
        public static let duplicateID = Code(name: "duplicateID")
        /// One record is larger than the store allows.
        public static let recordTooLarge = Code(name: "recordTooLarge")
        /// The store holds as many records as it may.
        public static let capacityReached = Code(name: "capacityReached")
        /// Another owner holds the data directory or the store.
        public static let locked = Code(name: "locked")
        /// The file system failed.
        public static let io = Code(name: "io")
        /// The file is not a store of this kind or version.
        public static let incompatible = Code(name: "incompatible")
        /// The change would move a status backwards.
        public static let invalidTransition = Code(name: "invalidTransition")
        /// The data directory belongs to another user.
        public static let ownedByAnotherUser = Code(name: "ownedByAnotherUser")

        /// The code's name (`locked`, `io`, …).
        public var description: String { name }
    }

    /// What kind of error this is, with what it carries.
    package let kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// A record with this id is already stored.
    public static func duplicateID(_ id: String) -> StoreError { StoreError(.duplicateID(id)) }
    /// One record is larger than the store allows.
    public static func recordTooLarge(bytes: Int, limit: Int) -> StoreError {
        StoreError(.recordTooLarge(bytes: bytes, limit: limit))
    }
    /// The store holds as many records as it may; nothing is evicted to make room.
    public static func capacityReached(limit: Int) -> StoreError { StoreError(.capacityReached(limit: limit)) }
    /// Another owner — another process, or an earlier open in this one — holds the data directory or the store at
    /// `path`.
    public static func locked(path: String) -> StoreError { StoreError(.locked(path: path)) }
    /// The file system failed (`errno` text included).
    public static func io(_ text: String) -> StoreError { StoreError(.io(text)) }
    /// The file is not a store of this kind or version.
    public static func incompatible(_ text: String) -> StoreError { StoreError(.incompatible(text)) }
    /// The change would move a status backwards.
    public static func invalidTransition(from: MessageStatus, to: MessageStatus) -> StoreError {
        StoreError(.invalidTransition(from: from, to: to))
    }
    /// The data directory belongs to `owner`, the user who first signed in there, and `requested` asked for it: its
    /// data is never shown to, nor sent as, someone else.
    public static func ownedByAnotherUser(owner: UserID, requested: UserID) -> StoreError {
        StoreError(.ownedByAnotherUser(owner: owner, requested: requested))
    }

    /// What kind of error this is, whatever it carries.
    public var code: Code {
        switch kind {
        case .duplicateID: .duplicateID
        case .recordTooLarge: .recordTooLarge
        case .capacityReached: .capacityReached
        case .locked: .locked
        case .io: .io
        case .incompatible: .incompatible
        case .invalidTransition: .invalidTransition
        case .ownedByAnotherUser: .ownedByAnotherUser
        }
    }

    /// The directory or store another owner holds (`locked`); nil for the other codes.
    public var path: String? {
        if case .locked(let path) = kind { return path }
        return nil
    }

    /// What the file system said (`io`), why the file is not a store of this kind (`incompatible`), or the id
    /// already stored (`duplicateID`); nil for the other codes.
    public var reason: String? {
        switch kind {
        case .io(let text), .incompatible(let text), .duplicateID(let text): text
        default: nil
        }
    }

    /// How large the refused record was, in bytes (`recordTooLarge`); nil for the other codes.
    public var bytes: Int? {
        if case .recordTooLarge(let bytes, _) = kind { return bytes }
        return nil
    }

    /// The size allowed: of one record (`recordTooLarge`, in bytes) or of the store (`capacityReached`, in records);
    /// nil for the other codes.
    public var limit: Int? {
        switch kind {
        case .recordTooLarge(_, let limit), .capacityReached(let limit): limit
        default: nil
        }
    }

    /// The owner of the data directory (`ownedByAnotherUser`); nil for the other codes.
    public var owner: UserID? {
        if case .ownedByAnotherUser(let owner, _) = kind { return owner }
        return nil
    }

    /// The user who asked for another's data directory (`ownedByAnotherUser`); nil for the other codes.
    public var requested: UserID? {
        if case .ownedByAnotherUser(_, let requested) = kind { return requested }
        return nil
    }

    /// Whether `value` is this error: `catch StoreError.locked(path: path)`.
    public static func ~= (pattern: StoreError, value: any Error) -> Bool { (value as? StoreError) == pattern }

    public var description: String {
        switch kind {
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
