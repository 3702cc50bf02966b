import CourierData
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Building a route's request (what a client does)

extension HTTPRoute {
    /// The route's URL under `base`, keeping the base's path: under `http://host:8080/api/` (or `…/api`),
    /// `GET /events/end` is `http://host:8080/api/events/end`. Each segment is percent-encoded whole — an id's `/`,
    /// `?`, `#`, `%` or `;` too, and an id that is `.` or `..` — so it comes back as one segment, as it was; a `+` in
    /// the query is sent as `%2B`, never read as a space. Nil only when Foundation cannot form the URL.
    public func url(against base: URL) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        var prefix = components.percentEncodedPath
        if prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + "/" + segments.map(Self.encoded).joined(separator: "/")
        let items = query.map { URLQueryItem(name: $0.name, value: $0.value) }
        components.queryItems = items.isEmpty ? nil : items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url
    }

    /// The route's request under `base` (`url(against:)`): its method; `Accept: application/json`;
    /// `Authorization: Bearer TOKEN` when `bearer` is given (every route but `signIn` wants one); and `body` as JSON
    /// (`Content-Type: application/json`) when given. The one place a request of the contract is made.
    public func request(against base: URL, bearer: String?, body: Data? = nil) -> URLRequest? {
        guard let url = url(against: base) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue(Self.json, forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue(Self.json, forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    private static let json = "application/json"

    /// One segment percent-encoded: everything but what may stand unescaped in a segment, and the dots of a
    /// segment that is only dots (which a URL's path would otherwise resolve away).
    private static func encoded(_ segment: String) -> String {
        guard segment != ".", segment != ".." else { return String(repeating: "%2E", count: segment.count) }
        return segment.addingPercentEncoding(withAllowedCharacters: .pathSegment) ?? segment
    }
}

extension CharacterSet {
    /// What may stand unescaped in one path segment.
    package static let pathSegment: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/;")
        return set
    }()
}
