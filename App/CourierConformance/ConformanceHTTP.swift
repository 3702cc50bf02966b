import CourierData
import CourierHTTP
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

    /// Sends `route`'s request (`HTTPRoute.request(against:bearer:body:)`, under the base URL's path) with `bearer`
    /// (or no `Authorization`) and returns the answer; a failure when none came.
    func send(_ route: HTTPRoute, body: Data? = nil, bearer: String?) async throws(ConformanceFailure)
        -> ConformanceReply
    {
        let what = route.description
        guard let request = route.request(against: baseURL, bearer: bearer, body: body) else {
            throw ConformanceFailure("\(what): no URL under \(baseURL)")
        }
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
}
