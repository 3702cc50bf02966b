import CourierData
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain HTTP to the backend under test, on `URLSession`: every answer comes back as it is, status and body, so a
/// check sees exactly what the backend said (the app's `HTTPChatClient` would turn it into errors and sign in again).
struct ConformanceHTTP: Sendable {
    let baseURL: URL
    private let session: URLSession

    /// A transport to `baseURL` giving up on a request after `timeout` seconds.
    init(baseURL: URL, timeout: TimeInterval) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// Sends one request with `bearer` (or no `Authorization`) and returns the answer; a failure when none came.
    func send(
        _ method: String, _ path: [String], query: [URLQueryItem] = [], body: Data? = nil, bearer: String?
    ) async throws(ConformanceFailure) -> ConformanceReply {
        var request = URLRequest(url: url(path, query: query))
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let what = "\(method) /\(path.joined(separator: "/"))"
        let session = self.session
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure("\(error.localizedDescription)"))
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: .reply(response.statusCode, data ?? Data()))
                } else {
                    continuation.resume(returning: .failure("no HTTP response"))
                }
            }.resume()
        }
        switch result {
        case .reply(let status, let data): return ConformanceReply(request: what, status: status, data: data)
        case .failure(let reason): throw ConformanceFailure("\(what): no answer (\(reason))")
        }
    }

    /// A request's outcome on the session's queue.
    private enum Answer: Sendable {
        case reply(Int, Data)
        case failure(String)
    }

    private func url(_ path: [String], query: [URLQueryItem]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        let segments = path.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        let prefix =
            components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = prefix + "/" + segments.joined(separator: "/")
        components.queryItems = query.isEmpty ? nil : query
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? baseURL
    }
}
