import Foundation

/// Where a Matrix homeserver answers the Client-Server API: its base URL (`http://127.0.0.1:8008`), with every
/// endpoint below `_matrix/client`.
public struct MatrixHomeserver: Hashable, Sendable {
    /// The homeserver's base URL, as a user would type it.
    public let baseURL: URL

    /// The homeserver at `baseURL`.
    public init(baseURL: URL) { self.baseURL = baseURL }

    /// The URL of a Client-Server endpoint: `path` below `_matrix/client/` (`v3/login`), with `query` items.
    public func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.percentEncodedPath = base + "/_matrix/client/" + path
        components.queryItems = query.isEmpty ? nil : query
        return components.url ?? baseURL
    }
}
