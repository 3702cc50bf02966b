import Foundation
import Testing

@testable import CourierApp

/// `--server URL`: an http URL is taken, anything else is a bad invocation.
@Suite struct DriverServerOptionTests {
    @Test func anHTTPURLIsTheServer() throws {
        let options = try DriverOptions.parse(["--server", "http://127.0.0.1:8080"])
        #expect(options.server == URL(string: "http://127.0.0.1:8080"))
        #expect(try DriverOptions.parse([]).server == nil)
    }

    @Test func otherValuesAreABadInvocation() {
        for bad in [
            ["--server"], ["--server", "ftp://127.0.0.1:21"], ["--server", "127.0.0.1:8080"],
            ["--server", "--json"],
        ] {
            #expect(throws: DriverError.self, "\(bad)") { try DriverOptions.parse(bad) }
        }
    }
}
