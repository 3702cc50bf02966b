import CourierConformance
import CourierDomain
import Foundation
import Testing

/// The command line of `courier-conformance`, read without running anything.
@Suite struct ConformanceOptionsTests {
    @Test func twoUsersAndATimeoutAreRead() throws {
        // Given a full command line
        let arguments = [
            "--server", "http://127.0.0.1:8080", "--user", "me", "--password", "courier", "--user2", "ben",
            "--password2", "secret", "--timeout", "3",
        ]

        // When it is read
        let options = try ConformanceOptions.parse(arguments)

        // Then every value is where it belongs
        #expect(options.server == URL(string: "http://127.0.0.1:8080"))
        #expect(options.user == ConformanceOptions.Credentials(id: "me", password: "courier"))
        #expect(options.user2 == ConformanceOptions.Credentials(id: "ben", password: "secret"))
        #expect(options.timeout == 3)
    }

    @Test(arguments: [
        ([], "--server is required"),
        (["--server", "http://h", "--user", "me"], "--user and --password are required"),
        (["--server", "ftp://h", "--user", "me", "--password", "p"], "--server takes an http(s) URL, not ftp://h"),
        (
            ["--server", "http://h", "--user", "me", "--password", "p", "--user2", "ben"],
            "--user2 and --password2 go together"
        ),
        (
            ["--server", "http://h", "--user", "me", "--password", "p", "--user2", "me", "--password2", "p"],
            "--user2 must be another user than --user"
        ),
        (["--server", "http://h", "--verbose"], "unknown option --verbose"),
        (["--server", "--user", "me"], "--server needs a value"),
        (["--server", "http://h", "--server", "http://i"], "--server is given twice"),
        (
            ["--server", "http://h", "--user", "me", "--password", "p", "--timeout", "0"],
            "--timeout takes a number of seconds, at least 1"
        ),
    ])
    func aBadCommandLineIsRefusedSayingWhy(_ arguments: [String], _ problem: String) {
        // Given a command line with one thing wrong
        // When it is read
        // Then it is refused with what is wrong
        #expect(throws: ConformanceOptions.Problem(description: problem)) {
            try ConformanceOptions.parse(arguments)
        }
    }
}
