#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A typed textual id: `Identifier<MessageTag>` and `Identifier<ConversationTag>` cannot be mixed up, yet both are
/// plain strings on disk and on the wire.
public struct Identifier<Tag>: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The textual id.
    public let rawValue: String
    /// Wraps a textual id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a textual id.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Wraps a literal id.
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: Identifier, rhs: Identifier) -> Bool { lhs.rawValue < rhs.rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Tags the ids of messages.
public enum MessageTag {}
/// Tags the ids of conversations.
public enum ConversationTag {}
/// Tags the ids of users.
public enum UserTag {}

/// The id of a message. Generated on the client; it is the idempotency key end to end (docs/reliability.md).
public typealias MessageID = Identifier<MessageTag>
/// The id of a conversation (`c1` … `c120` in the demo data).
public typealias ConversationID = Identifier<ConversationTag>
/// The id of a user (`me`, `ana`, `ben` … in the demo data).
public typealias UserID = Identifier<UserTag>
