import CourierDomain
import Foundation

/// What `courier-conformance` checks: a backend's address and one or two users who can sign in to it.
///
/// `--server URL --user ID --password P [--user2 ID --password2 P]`. With a second user the kit also checks who may
/// do what (403) and that the event feed leaves no gap between two users; without one those checks are skipped.
public struct ConformanceOptions: Equatable, Sendable {
    /// The command line's usage line.
    public static let usage =
        "usage: courier-conformance --server URL --user ID --password P [--user2 ID --password2 P] [--timeout SECONDS]"

    /// Where the backend is, e.g. `http://127.0.0.1:8080`.
    public var server: URL
    /// The first user and their password.
    public var user: Credentials
    /// A second user, sharing at least one conversation with the first, and their password.
    public var user2: Credentials?
    /// How long one request may take before the check fails, in seconds.
    public var timeout: TimeInterval

    /// A user who signs in with a password.
    public struct Credentials: Equatable, Sendable {
        /// The user.
        public var id: UserID
        /// Their password.
        public var password: String
        /// Creates credentials.
        public init(id: UserID, password: String) {
            self.id = id
            self.password = password
        }
    }

    /// Options given in code.
    public init(server: URL, user: Credentials, user2: Credentials? = nil, timeout: TimeInterval = 10) {
        self.server = server
        self.user = user
        self.user2 = user2
        self.timeout = timeout
    }

    /// Why a command line was refused (the executable exits 2 with it and the usage line).
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong, for a person.
        public var description: String
        /// A problem described as `description`.
        public init(description: String) { self.description = description }
    }

    /// The options of `arguments` (without the program's name); throws `Problem` for an unknown option, a missing
    /// value or a missing required option, an address that is not http(s), or a second user without a password.
    public static func parse(_ arguments: [String]) throws(Problem) -> ConformanceOptions {
        var values: [String: String] = [:]
        var rest = arguments[...]
        let known = ["--server", "--user", "--password", "--user2", "--password2", "--timeout"]
        while let option = rest.popFirst() {
            guard known.contains(option) else { throw Problem(description: "unknown option \(option)") }
            guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("--") else {
                throw Problem(description: "\(option) needs a value")
            }
            guard values[option] == nil else { throw Problem(description: "\(option) is given twice") }
            values[option] = value
        }
        guard let address = values["--server"] else { throw Problem(description: "--server is required") }
        guard let server = URL(string: address), ["http", "https"].contains(server.scheme ?? ""), server.host != nil
        else { throw Problem(description: "--server takes an http(s) URL, not \(address)") }
        guard let user = values["--user"], let password = values["--password"] else {
            throw Problem(description: "--user and --password are required")
        }
        var options = ConformanceOptions(server: server, user: Credentials(id: UserID(user), password: password))
        switch (values["--user2"], values["--password2"]) {
        case (let second?, let secondPassword?):
            guard second != user else { throw Problem(description: "--user2 must be another user than --user") }
            options.user2 = Credentials(id: UserID(second), password: secondPassword)
        case (nil, nil): break
        default: throw Problem(description: "--user2 and --password2 go together")
        }
        if let text = values["--timeout"] {
            guard let seconds = TimeInterval(text), seconds.isFinite, seconds >= 1 else {
                throw Problem(description: "--timeout takes a number of seconds, at least 1")
            }
            options.timeout = seconds
        }
        return options
    }
}
