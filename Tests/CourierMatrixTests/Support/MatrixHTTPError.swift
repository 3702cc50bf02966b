/// A homeserver's answer that was not a success, or not the JSON object every Client-Server endpoint answers.
struct MatrixHTTPError: Error, CustomStringConvertible {
    /// The request, `PUT /_matrix/client/v3/rooms/…`.
    let request: String
    /// The HTTP status (0 when the answer was not HTTP at all).
    let status: Int
    /// The Matrix error code, `M_FORBIDDEN`, when the body had one.
    let errcode: String?
    /// The body as text, for the failure message.
    let body: String

    /// What a failing test prints.
    var description: String { "\(request) answered \(status) \(errcode ?? ""): \(body)" }
}
