/// Why the backend did not take a request. Knows whether trying again can help; what the user reads about it is
/// Presentation's (`userMessage`).
///
/// A struct rather than an enum, so that a later version can add a kind of error without breaking an app's
/// exhaustive `switch` (the package is not built with library evolution, so a public enum would be frozen). Match one
/// error by value — `error == .offline`, `case .offline:` in a `switch` over an error, `catch DeliveryError.offline`
/// — or a kind whatever it carries by `code` (`switch error.code { case .server: … default: … }`); what some kinds
/// carry is a property (`statusCode`, `retryAfter`, `reason`).
public struct DeliveryError: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The kinds, with what each carries: the package's own, so that its `switch`es stay exhaustive. It encodes as
    /// the enum `DeliveryError` once was (`{"server":{"code":502}}`), which JSON records of earlier builds hold.
    package enum Kind: Hashable, Codable, Sendable {
        case offline
        case unreachable
        case timeout
        case server(code: Int)
        case unauthorized
        case forbidden
        case rateLimited(retryAfter: Duration)
        case validation(reason: String)
        case notFound
        case conflict
        case unknown(String)
        case cancelled
        case unanswered
    }

    /// The kind of a delivery error, without what it carries. New codes may be added: a `switch` over one has a
    /// `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// No connection: the request never left the device.
        public static let offline = Code(name: "offline")
        /// No connection to the backend could be made.
        public static let unreachable = Code(name: "unreachable")
        /// No answer within the attempt's timeout.
        public static let timeout = Code(name: "timeout")
        /// The backend failed (5xx-like); the status is `statusCode`.
        public static let server = Code(name: "server")
        /// Sign-in expired or was revoked.
        public static let unauthorized = Code(name: "unauthorized")
        /// Signed in, but not allowed to do this.
        public static let forbidden = Code(name: "forbidden")
        /// The backend asks to wait (`retryAfter`) before trying again.
        public static let rateLimited = Code(name: "rateLimited")
        /// The backend refused the content; why is `reason`.
        public static let validation = Code(name: "validation")
        /// The conversation (or target) does not exist.
        public static let notFound = Code(name: "notFound")
        /// The backend already holds a message with this id and other content.
        public static let conflict = Code(name: "conflict")
        /// Anything else; what is known is `reason`.
        public static let unknown = Code(name: "unknown")
        /// The caller gave the request up.
        public static let cancelled = Code(name: "cancelled")
        /// The backend accepted the request and answered nothing within the transport's bound (lie-fi).
        public static let unanswered = Code(name: "unanswered")

        /// The code's name (`offline`, `server`, …).
        public var description: String { name }
    }

    /// What kind of error this is, with what it carries.
    package let kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// No connection: the request never left the device.
    public static let offline = DeliveryError(.offline)
    /// No connection to the backend could be made (refused, host or network unreachable, name not resolved): the
    /// request never reached it. Like `offline`, a connectivity state, never the message's failure.
    public static let unreachable = DeliveryError(.unreachable)
    /// No answer within the attempt's timeout; the backend may or may not have applied the write.
    public static let timeout = DeliveryError(.timeout)
    /// The backend failed (5xx-like); `code` is its status.
    public static func server(code: Int) -> DeliveryError { DeliveryError(.server(code: code)) }
    /// Sign-in expired or was revoked: pause and keep everything until it is renewed.
    public static let unauthorized = DeliveryError(.unauthorized)
    /// Signed in, but not allowed to do this (not a participant of the conversation, a sender that is not the
    /// signed-in user): asking again cannot change that, so the message fails.
    public static let forbidden = DeliveryError(.forbidden)
    /// The backend asks to wait before trying again (429-like): retried, never sooner than `retryAfter`.
    public static func rateLimited(retryAfter: Duration) -> DeliveryError {
        DeliveryError(.rateLimited(retryAfter: retryAfter))
    }
    /// The backend refused the content (400/422-like).
    public static func validation(reason: String) -> DeliveryError { DeliveryError(.validation(reason: reason)) }
    /// The conversation (or target) does not exist.
    public static let notFound = DeliveryError(.notFound)
    /// The backend already holds a message with this id and other content (409-like). Trying again cannot help:
    /// the id is taken, so the message stays failed and the user deletes it or sends the text anew.
    public static let conflict = DeliveryError(.conflict)
    /// Anything else.
    public static func unknown(_ text: String) -> DeliveryError { DeliveryError(.unknown(text)) }
    /// The caller gave the request up (its task was cancelled: the app closing, a screen gone, an attempt that lost
    /// its race with the timeout), so no answer is awaited; the backend may or may not have applied it. Neither the
    /// backend's answer nor the message's failure: whoever cancelled records nothing for it, and it is not retried.
    /// A request's `CancellationError` is this error, so that every repository throws `DeliveryError` alone.
    public static let cancelled = DeliveryError(.cancelled)
    /// The backend accepted the request and answered nothing within the transport's bound (a frozen server, a
    /// captive portal, a proxy holding the line: "lie-fi"). Like `unreachable`, a connectivity state, never the
    /// message's failure: the message waits queued and the reachability probe finds out when the backend answers.
    /// Unlike it, the request may have reached the backend (`mayHaveBeenApplied`), so the write's outcome is unknown
    /// until a resend under the same id settles it. A transport of an adopter's own bounds silence and throws this
    /// (`HTTPChatClient.unansweredBound` is 5 s).
    public static let unanswered = DeliveryError(.unanswered)

    /// What kind of error this is, whatever it carries.
    public var code: Code {
        switch kind {
        case .offline: .offline
        case .unreachable: .unreachable
        case .timeout: .timeout
        case .server: .server
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .rateLimited: .rateLimited
        case .validation: .validation
        case .notFound: .notFound
        case .conflict: .conflict
        case .unknown: .unknown
        case .cancelled: .cancelled
        case .unanswered: .unanswered
        }
    }

    /// The backend's status of a `server` error; nil for the other codes.
    public var statusCode: Int? {
        if case .server(let code) = kind { return code }
        return nil
    }

    /// Why the backend refused the content (`validation`), or what is known of an `unknown` error; nil otherwise.
    public var reason: String? {
        switch kind {
        case .validation(let reason): reason
        case .unknown(let text): text
        default: nil
        }
    }

    /// Whether the same request may succeed later without the user changing anything.
    public var isRetryable: Bool {
        switch kind {
        case .offline, .unreachable, .unanswered, .timeout, .server, .rateLimited: true
        case .unauthorized, .forbidden, .validation, .notFound, .conflict, .unknown, .cancelled: false
        }
    }

    /// Whether the backend may have applied the request though it never said so: no answer in time (`timeout`,
    /// `unanswered`). A write that ended so has an unknown outcome until a resend under the same id settles it; its
    /// text must not change meanwhile, or a backend that keeps the first text for the id (every idempotent one
    /// does) would silently drop the edit.
    public var mayHaveBeenApplied: Bool { kind == .timeout || kind == .unanswered }

    /// Whether the error says the backend cannot be reached right now (`unreachable`, `unanswered`): a connectivity
    /// state, not the request's failure.
    public var isBackendUnreachable: Bool { kind == .unreachable || kind == .unanswered }

    /// Whether the error is about who is signed in: sending pauses and nothing is marked failed for it.
    public var requiresSignIn: Bool { kind == .unauthorized }

    /// The shortest wait before asking again that the backend asked for; nil when it asked for none.
    public var retryAfter: Duration? {
        if case .rateLimited(let wait) = kind { return wait }
        return nil
    }

    /// The delivery error `error` stands for: a `DeliveryError` as it is, a `CancellationError` as `cancelled`,
    /// anything else as `unknown` with its description.
    public init(_ error: any Error) {
        if let error = error as? DeliveryError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .unknown(String(describing: error))
        }
    }

    /// Runs `body` and throws what it throws as a `DeliveryError` (`init(_:)`): how a repository over untyped code —
    /// a transport, a platform SDK, a clock's sleep — keeps its protocol's typed `throws(DeliveryError)`.
    public static func converting<Value>(_ body: () async throws -> Value) async throws(DeliveryError) -> Value {
        do {
            return try await body()
        } catch {
            throw DeliveryError(error)
        }
    }

    /// Whether `value` is this error: `catch DeliveryError.offline`.
    public static func ~= (pattern: DeliveryError, value: any Error) -> Bool { (value as? DeliveryError) == pattern }

    public var description: String {
        switch kind {
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
        case .cancelled: "cancelled"
        case .unanswered: "unanswered"
        }
    }

    /// Reads an error as the enum `DeliveryError` of earlier builds wrote it (`{"offline":{}}`).
    public init(from decoder: any Decoder) throws { kind = try Kind(from: decoder) }

    /// Writes the error as the enum `DeliveryError` of earlier builds did.
    public func encode(to encoder: any Encoder) throws { try kind.encode(to: encoder) }
}
