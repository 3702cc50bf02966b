import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The baseline side of `courier-bench matrix`: bare Client-Server requests on `URLSession` with JSON dictionaries,
/// nothing of Courier's — what an app would spend without an offline layer.
final class MatrixRawClient: Sendable {
    let base: URL
    let token: String
    let userID: String
    private let session: URLSession

    private init(base: URL, token: String, userID: String) {
        self.base = base
        self.token = token
        self.userID = userID
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120
        configuration.httpMaximumConnectionsPerHost = 8
        session = URLSession(configuration: configuration)
    }

    /// Registers `localpart` (password `courier`) on the homeserver at `base` and returns its client.
    static func register(_ localpart: String, at base: URL) async throws -> MatrixRawClient {
        let anonymous = MatrixRawClient(base: base, token: "", userID: "")
        let answer = try await anonymous.call(
            "POST", "v3/register",
            body: ["username": localpart, "password": "courier", "auth": ["type": "m.login.dummy"]], signed: false)
        guard let token = answer["access_token"] as? String, let user = answer["user_id"] as? String else {
            throw BenchFailure("registering \(localpart) answered \(answer)")
        }
        return MatrixRawClient(base: base, token: token, userID: user)
    }

    /// One request; the answer's JSON object. `path` is below `_matrix/client/`, already escaped.
    @discardableResult
    func call(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: [String: Any]? = nil, signed: Bool = true
    )
        async throws -> [String: Any]
    {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.percentEncodedPath = "/_matrix/client/" + path
        components.queryItems = query.isEmpty ? nil : query
        guard let url = components.url else { throw BenchFailure("no URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if signed { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200...299).contains(status) else {
            throw BenchFailure("\(method) \(path) answered \(String(decoding: data, as: UTF8.self))")
        }
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Sends `text` into `room` under `txn`; returns the event id.
    @discardableResult
    func send(_ text: String, in room: String, txn: String) async throws -> String {
        let answer = try await call(
            "PUT", "v3/rooms/\(Self.escape(room))/send/m.room.message/\(Self.escape(txn))",
            body: ["msgtype": "m.text", "body": text])
        return answer["event_id"] as? String ?? ""
    }

    /// A `/sync` after `since` (from nothing when nil), held up to `timeout` ms, with a timeline limit.
    func sync(since: String?, timeout: Int, limit: Int) async throws -> [String: Any] {
        var query = [
            URLQueryItem(name: "timeout", value: "\(timeout)"),
            URLQueryItem(name: "filter", value: #"{"room":{"timeline":{"limit":\#(limit)}},"presence":{"types":[]}}"#),
        ]
        if let since { query.append(URLQueryItem(name: "since", value: since)) }
        return try await call("GET", "v3/sync", query: query)
    }

    /// `/messages` backwards from `from` down to `to`, `limit` a page; the events and the next token.
    func messages(in room: String, from: String, to: String, limit: Int) async throws -> ([Any], String?) {
        let answer = try await call(
            "GET", "v3/rooms/\(Self.escape(room))/messages",
            query: [
                URLQueryItem(name: "dir", value: "b"), URLQueryItem(name: "from", value: from),
                URLQueryItem(name: "to", value: to), URLQueryItem(name: "limit", value: "\(limit)"),
            ])
        return (answer["chunk"] as? [Any] ?? [], answer["end"] as? String)
    }

    /// `id` escaped for one path segment.
    static func escape(_ id: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
