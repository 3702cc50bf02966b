/// A place in one user's event feed, as the backend gave it: a token the device keeps, stores and sends back as it
/// came, and never interprets (a Matrix homeserver's is a string per batch, Courier's own backend's a number per
/// event). Opaque to screens and to the sync engine alike.
///
/// A backend whose tokens follow an order it can state gives it too (`order`: a number that never decreases along
/// the feed). The engine uses it for one thing only: to notice a feed that went back — a backend that lost its data
/// and answers an old cursor with an earlier position instead of "expired" — and start over instead of missing what
/// it forgot. Positions without an order are never compared.
public struct FeedPosition: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The backend's token, sent back as it came.
    public let token: String
    /// Where the position stands along the feed, when the backend states it: never decreasing from one answer to the
    /// next of the same feed.
    public let order: UInt64?

    /// The position `token`, with its place along the feed when the backend states one.
    public init(token: String, order: UInt64? = nil) {
        self.token = token
        self.order = order
    }

    /// The position numbered `value`, for a backend whose every event gets the next number (Courier's own): its
    /// token is the number, and so is its order.
    public init(_ value: UInt64) {
        token = String(value)
        order = value
    }

    /// Before every event of a numbered feed.
    public static let start = FeedPosition(0)

    /// The number of a numbered position (`init(_:)`), nil for any other token.
    public var number: UInt64? {
        guard let order, token == String(order) else { return nil }
        return order
    }

    /// Whether this position is known to come before `other` along the same feed: both state an order and this one's
    /// is lower. Nil when either states none (tokens are not compared).
    public func precedes(_ other: FeedPosition) -> Bool? {
        guard let order, let otherOrder = other.order else { return nil }
        return order < otherOrder
    }

    public var description: String { token }

    // MARK: - Coding

    private enum CodingKeys: String, CodingKey {
        case token, order
    }

    /// Reads a number (a numbered position: what every earlier cursor record and Courier's wire hold), a string (a
    /// token with no order) or `{"token": …, "order": …}`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if let number = try? single.decode(UInt64.self) {
                self.init(number)
                return
            }
            if let token = try? single.decode(String.self) {
                self.init(token: token)
                return
            }
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            token: try container.decode(String.self, forKey: .token),
            order: try container.decodeIfPresent(UInt64.self, forKey: .order))
    }

    /// Writes a numbered position as its number (as it always was), a token without an order as a string, and any
    /// other as `{"token": …, "order": …}`.
    public func encode(to encoder: any Encoder) throws {
        if let number {
            var single = encoder.singleValueContainer()
            try single.encode(number)
        } else if order == nil {
            var single = encoder.singleValueContainer()
            try single.encode(token)
        } else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(token, forKey: .token)
            try container.encodeIfPresent(order, forKey: .order)
        }
    }
}
