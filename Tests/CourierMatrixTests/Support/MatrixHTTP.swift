import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// JSON over HTTP to a homeserver as any client speaks it — URLSession and JSONSerialization, nothing of
/// CourierMatrix — so the tests state what Synapse does, not what Courier's adapter believes it does.
enum MatrixHTTP {
    /// Path segments and query values are encoded down to the unreserved characters: room ids and event ids carry
    /// `!`, `$` and `:`, and a filter is JSON.
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// A session that keeps no cache or cookies between requests; its timeout outlasts the longest `/sync` hold.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// The URL of `segments` below `base` (each one percent-encoded), with `query` in its order.
    static func url(_ base: URL, _ segments: [String], query: [(String, String)] = []) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        let encoded = segments.map { $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? $0 }
        components.percentEncodedPath = "/" + encoded.joined(separator: "/")
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { name, value in
                "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value)"
            }.joined(separator: "&")
        }
        return components.url ?? base
    }

    /// Sends `method` to `url` with `body` as JSON and `token` as bearer; the answer's JSON object, or a
    /// `MatrixHTTPError` for any status outside 2xx.
    static func send(
        _ method: String, _ url: URL, token: String? = nil, body: [String: Any]? = nil
    ) async throws -> [String: Any] {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard (200..<300).contains(status), let object else {
            throw MatrixHTTPError(
                request: "\(method) \(url.path)", status: status, errcode: object?["errcode"] as? String,
                body: String(decoding: data.prefix(2_000), as: UTF8.self))
        }
        return object
    }
}
