/// Why bytes from a client are not an acceptable HTTP/1.1 request; carries the status the server answers with
/// before it closes the connection.
public struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The status to answer with (400, 411, 413, 414, 431, 501, 505).
    public var status: Int
    /// What was wrong, for the response body.
    public var reason: String

    public var description: String { "\(status): \(reason)" }
}
