/// Why the backend did not take a request. Knows whether trying again can help; what the user reads about it is
/// Presentation's (`userMessage`).
public enum DeliveryError: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    /// No connection: the request never left the device.
    case offline
    /// No connection to the backend could be made (refused, host or network unreachable, name not resolved): the
    /// request never reached it. Like `offline`, a connectivity state, never the message's failure.
    case unreachable
    /// No answer within the attempt's timeout; the backend may or may not have applied the write.
    case timeout
    /// The backend failed (5xx-like); `code` is its status.
    case server(code: Int)
    /// Sign-in expired or was revoked: pause and keep everything until it is renewed.
    case unauthorized
    /// Signed in, but not allowed to do this (not a participant of the conversation, a sender that is not the
    /// signed-in user): asking again cannot change that, so the message fails.
    case forbidden
    /// The backend asks to wait before trying again (429-like): retried, never sooner than `retryAfter`.
    case rateLimited(retryAfter: Duration)
    /// The backend refused the content (400/422-like).
    case validation(reason: String)
    /// The conversation (or target) does not exist.
    case notFound
    /// The backend already holds a message with this id and other content (409-like). Trying again cannot help:
    /// the id is taken, so the message stays failed and the user deletes it or sends the text anew.
    case conflict
    /// Anything else.
    case unknown(String)

    /// Whether the same request may succeed later without the user changing anything.
    public var isRetryable: Bool {
        switch self {
        case .offline, .unreachable, .timeout, .server, .rateLimited: true
        case .unauthorized, .forbidden, .validation, .notFound, .conflict, .unknown: false
        }
    }

    /// Whether the error is about who is signed in: sending pauses and nothing is marked failed for it.
    public var requiresSignIn: Bool { self == .unauthorized }

    /// The shortest wait before asking again that the backend asked for; nil when it asked for none.
    public var retryAfter: Duration? {
        if case .rateLimited(let wait) = self { return wait }
        return nil
    }

    public var description: String {
        switch self {
        case .offline: "offline"
        case .unreachable: "unreachable"
        case .timeout: "timeout"
        case .server(let code): "server(\(code))"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .rateLimited(let wait): "rateLimited(\(wait.components.seconds)s)"
        case .validation(let reason): "validation(\(reason))"
        case .notFound: "notFound"
        case .conflict: "conflict"
        case .unknown(let text): "unknown(\(text))"
        }
    }
}
