import CourierDomain
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chat backend over HTTP: the Domain repositories implemented by the REST contract of docs/http-api.md, on
/// `URLSession`.
///
/// Every request has a timeout; a transport failure becomes the `DeliveryError` the retry policy understands: no
/// answer in time or a connection lost mid-request → `.timeout` (the server may have applied the write, and the
/// idempotent resend settles it), a refused connection → `.unreachable` (not retried: the backend is unreachable, and
/// the client's reachability probe says when it answers again); timeouts are retried. HTTP statuses map
/// as `HTTPWire.error(status:body:)` says. Sends are `PUT`s by message id, so a resend never stores twice.
///
/// Long polls of the event feed (`HTTPChatClient+Feed`) go on a session of their own, so a held poll never takes a
/// connection other requests wait for, and their timeout is the hold plus the usual one.
public final class HTTPChatClient: Sendable {
    /// Where the server is, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// Sent as `Authorization: Bearer USER`.
    public let user: UserID
    /// How long a request may take, in whole seconds; a long poll gets its hold on top.
    let attemptSeconds: TimeInterval
    private let session: URLSession
    private let pollSession: URLSession

    /// A client of the server at `baseURL`, signed in as `user`, giving up on a request after `timeout` (at least
    /// one second: FoundationNetworking on Linux counts request timeouts in whole seconds and fires a shorter one at
    /// once).
    public init(baseURL: URL, user: UserID, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL
        self.user = user
        let seconds = max(1, timeout.timeInterval.rounded(.up))
        attemptSeconds = seconds
        session = Self.session(timeout: seconds, connections: 4)
        // Each poll sets its own timeout (its hold plus `seconds`); the session's only has to let the longest pass.
        pollSession = Self.session(timeout: seconds + HTTPWire.maxEventWait.timeInterval + 1, connections: 2)
    }

    deinit {
        session.finishTasksAndInvalidate()
        pollSession.finishTasksAndInvalidate()
    }

    private static func session(timeout seconds: TimeInterval, connections: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }

    // MARK: - Admin reads

    /// The conversation as the server keeps it and how many messages it stores; `.notFound` for an unknown id.
    public func conversationInfo(_ id: ConversationID) async throws -> HTTPWire.ConversationBody {
        try await request("GET", ["conversations", id.rawValue], as: HTTPWire.ConversationBody.self)
    }

    /// Changes a user's display name (`PUT /users/{id}/display-name`).
    public func updateDisplayName(of user: UserID, to name: String) async throws {
        let body = try HTTPWire.encode(HTTPWire.DisplayNameBody(name: name))
        _ = try await exchange("PUT", ["users", user.rawValue, "display-name"], body: body)
    }

    // MARK: - Transport

    /// Sends one request and decodes a 2xx answer as `Value`; any other answer throws its `DeliveryError`.
    func request<Value: Decodable>(
        _ method: String, _ path: [String], query: [URLQueryItem] = [], body: Data? = nil, as type: Value.Type
    ) async throws -> Value {
        let data = try await exchange(method, path, query: query, body: body)
        do {
            return try HTTPWire.decode(type, from: data)
        } catch {
            throw DeliveryError.unknown("the server's answer could not be read")
        }
    }

    /// Sends one request; returns the body of a 2xx answer, throws the `DeliveryError` of any other.
    func exchange(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: Data? = nil) async throws
        -> Data
    {
        let (data, status) = try await answer(method, path, query: query, body: body)
        guard (200...299).contains(status) else { throw Self.error(status: status, body: data) }
        return data
    }

    /// Sends one request and returns its answer, whatever its status; throws only for a transport failure. A request
    /// the server may hold (a long poll) names its longest hold in `held`: it goes on the poll session, with `held`
    /// on top of the usual timeout.
    func answer(
        _ method: String, _ path: [String], query: [URLQueryItem] = [], body: Data? = nil, held: Duration = .zero
    ) async throws -> (Data, Int) {
        var request = URLRequest(url: url(path, query: query))
        request.httpMethod = method
        request.setValue("Bearer \(user.rawValue)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        guard held > .zero else { return try await perform(request, on: session) }
        request.timeoutInterval = attemptSeconds + held.timeInterval.rounded(.up)
        return try await perform(request, on: pollSession)
    }

    /// The `DeliveryError` of a non-2xx answer.
    static func error(status: Int, body: Data) -> DeliveryError {
        HTTPWire.error(status: status, body: try? HTTPWire.decode(HTTPWire.ErrorBody.self, from: body))
    }

    private func url(_ path: [String], query: [URLQueryItem]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let segments = path.map { $0.addingPercentEncoding(withAllowedCharacters: .pathSegment) ?? $0 }
        components.percentEncodedPath = "/" + segments.joined(separator: "/")
        components.queryItems = query.isEmpty ? nil : query
        // `+` is legal in a query but means a space to many servers; ours reads it literally, but be explicit.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? baseURL
    }

    /// Runs the request; a cancelled caller cancels it.
    private func perform(_ request: URLRequest, on session: URLSession) async throws -> (Data, Int) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: Self.deliveryError(for: error))
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response.statusCode))
                    } else {
                        continuation.resume(throwing: DeliveryError.unknown("no HTTP response"))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// The `DeliveryError` of a transport failure.
    static func deliveryError(for error: any Error) -> any Error {
        guard let urlError = error as? URLError else { return DeliveryError.unknown("\(error)") }
        switch urlError.code {
        case .cancelled: return CancellationError()
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            // No connection could be made: the backend never saw the request. A connectivity state, not a failure.
            return DeliveryError.unreachable
        case .timedOut, .networkConnectionLost, .badServerResponse, .cannotParseResponse:
            return DeliveryError.timeout
        default: return DeliveryError.timeout
        }
    }
}

/// The running task, cancellable from the cancellation handler (which may run before the task exists).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ task: URLSessionDataTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}

extension CharacterSet {
    /// What may stand unescaped in one path segment.
    fileprivate static let pathSegment: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/;")
        return set
    }()
}
