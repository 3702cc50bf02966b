import CourierData
import CourierDomain
import CourierHTTP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests to a homeserver's Client-Server API on `URLSession`, with the homeserver's answers turned into the
/// `DeliveryError`s the rest of Courier understands: `M_UNKNOWN_TOKEN`/401 → `unauthorized`, `M_LIMIT_EXCEEDED`/429 →
/// `rateLimited` (after `retry_after_ms`), 403 → `forbidden`, 404 → `notFound`, another 4xx → `validation` with the
/// homeserver's text, 5xx → `server`; a transport failure as `HTTPTransfer` maps it (no connection → `unreachable`, no
/// answer in time → `unanswered`, a connection lost mid-answer → `timeout`).
///
/// Long polls (`/sync` with a timeout) go on a session of their own, so a held poll never takes the connection a
/// send waits for.
final class MatrixTransport: Sendable {
    /// One answer: its status and its body, read as JSON when it is.
    struct Reply: Sendable {
        /// The HTTP status.
        var status: Int
        /// The raw body.
        var data: Data
    }

    let homeserver: MatrixHomeserver
    private let attemptSeconds: TimeInterval
    private let session: URLSession
    private let pollSession: URLSession

    /// A transport to `homeserver` whose requests give up after `timeout` (whole seconds, at least one).
    init(homeserver: MatrixHomeserver, timeout: Duration) {
        self.homeserver = homeserver
        let seconds = max(1, timeout.timeInterval.rounded(.up))
        attemptSeconds = seconds
        session = HTTPTransfer.session(timeout: seconds, connections: 4)
        pollSession = HTTPTransfer.session(timeout: seconds + 120, connections: 2)
    }

    deinit {
        session.finishTasksAndInvalidate()
        pollSession.finishTasksAndInvalidate()
    }

    /// Sends one request; returns the body of a 2xx answer and throws the `DeliveryError` of any other. `path` is
    /// below `_matrix/client/` with its segments already escaped (`MatrixPath`); `held` is how long the homeserver may
    /// hold the request (a long poll), on top of the usual timeout.
    func call(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, token: String?,
        held: Duration = .zero
    ) async throws(DeliveryError) -> Data {
        let reply = try await answer(method, path, query: query, body: body, token: token, held: held)
        guard (200...299).contains(reply.status) else { throw Self.error(of: reply) }
        return reply.data
    }

    /// Sends one request and returns its answer whatever its status; throws only for a transport failure.
    func answer(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, token: String?,
        held: Duration = .zero
    ) async throws(DeliveryError) -> Reply {
        var request = URLRequest(url: homeserver.url(path, query: query))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let chosen: URLSession
        if held > .zero {
            request.timeoutInterval = attemptSeconds + held.timeInterval.rounded(.up)
            chosen = pollSession
        } else {
            chosen = session
        }
        let (data, response) = try await HTTPTransfer.perform(request, on: chosen)
        return Reply(status: response.statusCode, data: data)
    }

    /// The `DeliveryError` a homeserver's non-2xx answer means.
    static func error(of reply: Reply) -> DeliveryError {
        let body = try? JSONDecoder().decode(MatrixErrorBody.self, from: reply.data)
        let text = body?.error ?? "HTTP \(reply.status)"
        switch (reply.status, body?.errcode) {
        case (401, _), (_, "M_UNKNOWN_TOKEN"), (_, "M_MISSING_TOKEN"): return .unauthorized
        case (429, _), (_, "M_LIMIT_EXCEEDED"):
            return .rateLimited(retryAfter: .milliseconds(max(0, body?.retryAfterMilliseconds ?? 1_000)))
        case (403, _): return .forbidden
        case (404, _): return .notFound
        case (400..<500, _): return .validation(reason: "\(body?.errcode ?? "HTTP \(reply.status)"): \(text)")
        case (500..<600, _): return .server(code: reply.status)
        default: return .unknown("the homeserver answered \(reply.status): \(text)")
        }
    }
}

/// What a homeserver answers with an error: `{"errcode": "M_FORBIDDEN", "error": "…", "retry_after_ms": 1000}`.
struct MatrixErrorBody: Decodable {
    var errcode: String?
    var error: String?
    var retryAfterMilliseconds: Int64?

    private enum CodingKeys: String, CodingKey {
        case errcode, error
        case retryAfterMilliseconds = "retry_after_ms"
    }
}

/// Escapes identifiers for a Client-Server path: room ids (`!abc:server`), event ids (`$…`) and user ids (`@me:…`)
/// carry characters a path segment must not hold as they are.
enum MatrixPath {
    /// `segments` escaped one by one and joined with `/`.
    static func join(_ segments: String...) -> String {
        segments.map { $0.addingPercentEncoding(withAllowedCharacters: .matrixSegment) ?? $0 }.joined(separator: "/")
    }
}

extension CharacterSet {
    /// What may stand unescaped in one segment of a Client-Server path.
    fileprivate static let matrixSegment: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()
}
