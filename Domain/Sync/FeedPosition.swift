/// A place in one user's event feed: every event the backend records for a user gets the next position, so positions
/// strictly increase and a device that has applied everything up to a position asks for what follows it. Opaque to
/// screens; compared, stored and sent back as it came.
public struct FeedPosition: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The position's number: 0 before the first event.
    public let value: UInt64

    /// The position numbered `value`.
    public init(_ value: UInt64) { self.value = value }

    /// Before every event of a feed.
    public static let start = FeedPosition(0)

    public static func < (lhs: FeedPosition, rhs: FeedPosition) -> Bool { lhs.value < rhs.value }

    public var description: String { String(value) }

    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(UInt64.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
