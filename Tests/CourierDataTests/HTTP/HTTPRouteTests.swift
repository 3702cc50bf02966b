import CourierData
import CourierDomain
import CourierHTTP
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one route table: every route of docs/http-api.md builds a URL a server parses back to the same route, under a
/// base URL's path, with ids of any visible character; what is no route is refused as the server always did.
@Suite struct HTTPRouteTests {
    /// One of each route, with every parameter given.
    static let every: [HTTPRoute] = [
        .signIn, .signOut, .expireSession,
        .putMessage("c1", "m1"), .sendBatch("c1"), .messages("c1", before: "786000001.5~m1", limit: 30),
        .deleteMessage("c1", "m1"), .conversation("c1"), .hideConversation("c1"),
        .conversations(of: "me", after: "786000001~c1", limit: 100), .users(["me", "ben"]), .presence(["ana"]),
        .displayName("me"), .setPresence("me"),
        .events(after: "41", limit: 100, timeout: .milliseconds(2_500)), .feedEnd,
        .snapshot(conversations: 50, chats: ["c1", "c2"], messages: 20), .receipts("c1"), .reads("c1"), .trimEvents,
    ]

    /// The same routes with every optional parameter left out.
    static let bare: [HTTPRoute] = [
        .messages("c1", before: nil, limit: nil), .conversations(of: "me", after: nil, limit: nil),
        .events(after: nil, limit: nil, timeout: nil), .snapshot(conversations: nil, chats: [], messages: nil),
    ]

    static let base = URL(string: "http://127.0.0.1:8080")

    @Test func theSamplesHoldEveryRoute() {
        // Given the route table's cases, named by an exhaustive switch (a new route fails to compile here)
        // Then the samples hold each of them
        #expect(Set(Self.every.map(Self.name)).count == 20)
    }

    @Test(arguments: every + bare)
    func everyRouteIsParsedBackFromTheRequestItBuilds(route: HTTPRoute) throws {
        // Given a route's request under a base URL
        let base = try #require(Self.base)
        let request = try #require(route.request(against: base, bearer: "t"))

        // When the request's method, path and query are parsed, as a server's router does
        let parsed = try Self.parse(request)

        // Then it is the same route
        #expect(parsed == .success(route))
    }

    @Test(arguments: ["http://h:1/api/", "http://h:1/api"])
    func aBaseURLsPathIsKept(base: String) throws {
        // Given a base URL with a path, with or without its last slash
        let url = try #require(URL(string: base))

        // When routes are built under it
        let end = HTTPRoute.feedEnd.url(against: url)
        let page = HTTPRoute.messages("c1", before: nil, limit: 5).url(against: url)

        // Then each goes below the base's path, not over it
        #expect(end?.absoluteString == "http://h:1/api/events/end")
        #expect(page?.absoluteString == "http://h:1/api/conversations/c1/messages?limit=5")
    }

    @Test func idsWithReservedCharactersAreEncodedAndDecodedWhole() throws {
        // Given ids holding what a URL reserves — a slash, ?, #, %, ;, a space, a plus — and an id that is only dots
        let route = HTTPRoute.putMessage("a/b?c#d%e;f g+h", "..")
        let users = HTTPRoute.users(["a+b", "c&d=e"])

        // When their requests are built
        let base = try #require(Self.base)
        let url = try #require(route.url(against: base))
        let usersURL = try #require(users.url(against: base))

        // Then each id is one encoded segment, a + in the query is not a space, and both parse back as they were
        #expect(
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath
                == "/conversations/a%2Fb%3Fc%23d%25e%3Bf%20g+h/messages/%2E%2E")
        #expect(
            URLComponents(url: usersURL, resolvingAgainstBaseURL: false)?.percentEncodedQuery == "ids=a%2Bb,c%26d%3De")
        #expect(try Self.parse(URLRequest(url: url), method: "PUT") == .success(route))
        #expect(try Self.parse(URLRequest(url: usersURL)) == .success(users))
    }

    @Test func theRequestCarriesTheBearerAndJSONHeaders() throws {
        // Given a route with a body and a token, and sign-in without a token
        let base = try #require(Self.base)
        let send = try #require(
            HTTPRoute.sendBatch("c1").request(against: base, bearer: "T0K3N", body: Data("{}".utf8)))
        let signIn = try #require(HTTPRoute.signIn.request(against: base, bearer: nil, body: Data("{}".utf8)))
        let end = try #require(HTTPRoute.feedEnd.request(against: base, bearer: "T0K3N"))

        // Then the token is a bearer's, JSON is asked for, and a body is said to be JSON
        #expect(send.httpMethod == "POST")
        #expect(send.value(forHTTPHeaderField: "Authorization") == "Bearer T0K3N")
        #expect(send.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(send.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(signIn.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(end.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(end.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func whatIsNoRouteIsRefusedAsTheServerAlwaysDid() {
        // Given paths, methods and queries of no route
        func parse(_ method: String, _ path: String, _ query: [(String, String)] = []) -> Result<
            HTTPRoute, HTTPRoute.Refusal
        > {
            HTTPRoute.parse(method: method, path: path, query: query)
        }

        // Then an unknown path is 404's, a known path with another method 405's, broken encoding 400's, and a
        // query the contract refuses 422's, with the reason the server gives
        #expect(parse("GET", "/nowhere") == .failure(.notFound))
        #expect(parse("GET", "/conversations") == .failure(.notFound))
        #expect(parse("GET", "/conversations/c1/messages/m1/more") == .failure(.notFound))
        #expect(parse("PATCH", "/events/end") == .failure(.methodNotAllowed))
        #expect(parse("GET", "/sessions") == .failure(.methodNotAllowed))
        #expect(parse("POST", "/conversations/c1/messages/m1") == .failure(.methodNotAllowed))
        #expect(parse("GET", "/conversations/%zz") == .failure(.badPath))
        #expect(parse("GET", "/conversations/%C3%28") == .failure(.badPath))
        #expect(
            parse("GET", "/conversations/c1/messages", [("limit", "0")])
                == .failure(.badQuery("limit must be a whole number from 1 to 1000")))
        #expect(
            parse("GET", "/snapshot", [("messages", "x")])
                == .failure(.badQuery("messages must be a whole number from 1 to 1000")))
        #expect(
            parse("GET", "/events", [("timeout", "61")])
                == .failure(.badQuery("timeout must be a number of seconds from 0 to 60")))
        #expect(parse("GET", "/users") == .failure(.badQuery("ids is required")))
        // and a name no route reads is ignored, the first value of a name counts
        #expect(
            parse("GET", "/conversations/c1/messages", [("limit", "5"), ("limit", "x"), ("other", "y")])
                == .success(.messages("c1", before: nil, limit: 5)))
    }

    // MARK: - Helpers

    /// The route a server parses from `request`: its method, percent-encoded path and decoded query.
    private static func parse(_ request: URLRequest, method: String? = nil) throws -> Result<
        HTTPRoute, HTTPRoute.Refusal
    > {
        let url = try #require(request.url)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        return HTTPRoute.parse(
            method: method ?? request.httpMethod ?? "GET", path: components.percentEncodedPath, query: query)
    }

    private static func name(_ route: HTTPRoute) -> String {
        switch route {
        case .signIn: "signIn"
        case .signOut: "signOut"
        case .expireSession: "expireSession"
        case .putMessage: "putMessage"
        case .sendBatch: "sendBatch"
        case .messages: "messages"
        case .deleteMessage: "deleteMessage"
        case .conversation: "conversation"
        case .hideConversation: "hideConversation"
        case .conversations: "conversations"
        case .users: "users"
        case .presence: "presence"
        case .displayName: "displayName"
        case .setPresence: "setPresence"
        case .events: "events"
        case .feedEnd: "feedEnd"
        case .snapshot: "snapshot"
        case .receipts: "receipts"
        case .reads: "reads"
        case .trimEvents: "trimEvents"
        }
    }

    @Test("splitting on an ASCII byte gives what splitting on the character gives, limits and empty pieces included")
    func asciiSplitMatchesTheCharacterSplit() {
        // Given random strings over separators, letters and non-ASCII text (a combining accent after a comma too)
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = [",", ",", "/", "a", "b", "é", "e\u{301}", "日", ",\u{301}"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            let limit = Int.random(in: 0...4, using: &generator)
            for omitting in [true, false] {
                // When both split it at the commas
                let bytes = text.split(ascii: ",", maxSplits: limit, omittingEmptySubsequences: omitting)
                let characters = text.unicodeScalars.split(
                    separator: ",", maxSplits: limit, omittingEmptySubsequences: omitting
                ).map { String(String.UnicodeScalarView($0)) }

                // Then they agree piece by piece (on scalars: a comma is a comma on the wire, accent or not)
                #expect(bytes.map(String.init) == characters, "\(text.debugDescription) \(limit) \(omitting)")
            }
        }
    }
}
