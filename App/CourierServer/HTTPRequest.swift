import CourierData
import CourierDomain

/// One parsed HTTP/1.1 request.
public struct HTTPRequest: Equatable, Sendable {
    /// The method, as sent (`GET`, `PUT`, `POST`).
    public var method: String
    /// The path of the target, percent-decoded segment by segment later by the router (no query).
    public var path: String
    /// The query parameters, percent-decoded, in order.
    public var query: [(String, String)]
    /// The header fields, names lower-cased, in order.
    public var headers: [(String, String)]
    /// The body (empty without `Content-Length`).
    public var body: [UInt8]
    /// Whether the client asked to close the connection after this request (`Connection: close`, or HTTP/1.0).
    public var closesConnection: Bool
    /// Who sent it: the peer's address (`127.0.0.1`), set by the server; empty when unknown.
    public var client: String = ""
    /// Whether its line and header fields or its body are past `HTTPLimits`' heavy sizes (a long id list, a large
    /// batch), set by the server: its pure work — decoding, checking, encoding its answer — is done at low priority
    /// (`LowPriority`).
    public var isHeavy = false
    /// What the server read from it on its connection's thread before it joins the main actor's line: its route,
    /// and its body decoded (`ChatServer`). Nil until then; the router reads the request itself without it.
    public var prepared: PreparedRequest?

    /// Creates a request.
    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8] = [], closesConnection: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.closesConnection = closesConnection
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0 == lowered }?.1
    }

    /// The first value of query parameter `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// Equal when every part is equal, header and query order included.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query.elementsEqual(rhs.query, by: ==)
            && lhs.headers.elementsEqual(rhs.headers, by: ==) && lhs.body == rhs.body
            && lhs.closesConnection == rhs.closesConnection
    }
}

/// What a request says that can be read from its bytes alone — its path's segments, its route in the contract's
/// table, the message or batch its body holds — read once, on the connection's thread, so that the main actor, which
/// every user's requests wait for, does not do it (`ChatRouter.prepare`, `ContentLimits.screen`).
public struct PreparedRequest: Sendable {
    /// The path's segments, percent-decoded; nil when the encoding is broken.
    public var segments: [String]?
    /// The route the method, segments and query name, or why they name none.
    public var route: Result<HTTPRoute, HTTPRoute.Refusal>
    /// The body, decoded where the route takes a message (`PUT`) or a batch.
    public var body: Body?

    /// A body decoded ahead of the router.
    public enum Body: Sendable {
        case message(Message)
        case batch([Message])
    }
}
