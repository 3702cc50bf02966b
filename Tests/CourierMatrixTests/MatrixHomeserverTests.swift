import CourierMatrix
import Foundation
import Testing

@Suite struct MatrixHomeserverTests {
    @Test func endpointsKeepTheBaseURLsPath() throws {
        let server = MatrixHomeserver(baseURL: try #require(URL(string: "https://example.org/matrix/")))
        #expect(server.url("v3/login").absoluteString == "https://example.org/matrix/_matrix/client/v3/login")
        let bare = MatrixHomeserver(baseURL: try #require(URL(string: "http://127.0.0.1:8008")))
        let sync = bare.url("v3/sync", query: [URLQueryItem(name: "since", value: "s1_2")])
        #expect(sync.absoluteString == "http://127.0.0.1:8008/_matrix/client/v3/sync?since=s1_2")
    }
}
