import Foundation

/// The id of a message. Generated on the client; it is the idempotency key end to end (GUIDE invariant 2).
public struct MessageID: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The textual id (a UUID string for ids made by `IDGenerator`).
    public let rawValue: String
    /// Wraps a textual id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a textual id.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: MessageID, rhs: MessageID) -> Bool { lhs.rawValue < rhs.rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The id of a conversation (`c1` … `c120` in the demo data).
public struct ConversationID: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible,
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
    public static func < (lhs: ConversationID, rhs: ConversationID) -> Bool { lhs.rawValue < rhs.rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The id of a user (`me`, `ana`, `ben` … in the demo data).
public struct UserID: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible,
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
    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
