import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The driver's command-line options (docs/driver.md, "Invocation").
public struct DriverOptions: Equatable, Sendable {
    /// Where the client's stores and the simulated backend live.
    public var dataDirectory = URL(fileURLWithPath: ".courier")
    /// Read commands from this file instead of standard input.
    public var scriptPath: String?
    /// Print one JSON object per command.
    public var json = false
    /// Wipe the data directory first.
    public var fresh = false
    /// Seeds every random choice.
    public var seed: UInt64 = 1
    /// The clock; nil picks `virtual` unless input is a terminal.
    public var clock: ClockMode?
    /// `--help`: print the usage and leave.
    public var help = false
    /// A `courier-server` to talk HTTP to instead of the in-process backend.
    public var server: URL?
    /// A Matrix homeserver to talk the Client-Server API to instead of Courier's own backend (`--matrix`).
    public var matrix: URL?
    /// The password to sign in to the homeserver with (`--password`, with `--matrix`).
    public var password: String?
    /// The homeserver's sign-in, made before the data directory is opened (`DriverMain`): its full user id is the
    /// directory's owner.
    public var matrixSignIn: SignInToken?
    /// The demo user to sign in as; nil: the directory's owner (`me` for a new directory). With `--matrix`, a local
    /// part (`me`) or a full Matrix id (`@me:server`).
    public var user: String?
    /// `send ID TEXT…` after the options: compose one message and leave (`OneShotSend`), beside a running driver.
    public var oneShot: OneShot?

    /// A one-shot send: the conversation and the text (its words joined by single spaces).
    public struct OneShot: Equatable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The message's text, as typed.
        public var text: String
    }

    /// The usage line.
    public static let usage =
        "usage: courier [--data-dir DIR] [--script FILE] [--json] [--fresh] [--seed N] [--clock virtual|system]"
        + " [--server URL] [--user ID]\n       courier [--data-dir DIR] --matrix URL --user ID --password P"
        + " [--script FILE] [--json] [--fresh]\n       courier [--data-dir DIR] [--user ID] send ID TEXT…"

    /// Options with every default.
    public init() {}

    /// Parses the arguments after the program name; throws a message for a bad invocation (exit status 2).
    public static func parse(_ arguments: [String]) throws(DriverError) -> DriverOptions {
        var options = DriverOptions()
        var rest = arguments[...]
        func value(for flag: String) throws(DriverError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                throw .badArguments("\(flag) needs a value")
            }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--data-dir":
                let path = try value(for: argument)
                // An empty path would mean the working directory: never a data directory by accident.
                guard !path.isEmpty else { throw .badArguments("--data-dir needs a directory, not an empty path") }
                options.dataDirectory = URL(fileURLWithPath: path)
            case "--script": options.scriptPath = try value(for: argument)
            case "--json": options.json = true
            case "--fresh": options.fresh = true
            case "--seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text) else {
                    throw .badArguments("--seed takes a whole number from 0 to \(UInt64.max), not \(text)")
                }
                options.seed = seed
            case "--clock":
                let text = try value(for: argument)
                guard let mode = ClockMode(rawValue: text) else {
                    throw .badArguments("--clock takes virtual or system, not \(text)")
                }
                options.clock = mode
            case "--server":
                let text = try value(for: argument)
                guard let url = URL(string: text), url.scheme == "http", url.host != nil else {
                    throw .badArguments("--server takes an http:// URL, not \(text)")
                }
                options.server = url
            case "--matrix":
                let text = try value(for: argument)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw .badArguments("--matrix takes an http:// or https:// URL, not \(text)")
                }
                options.matrix = url
            case "--password":
                guard let next = rest.popFirst() else { throw .badArguments("--password needs a value") }
                options.password = next
            case "--user":
                let text = try value(for: argument)
                guard !text.isEmpty, text.utf8.count <= 255, text.allSatisfy(Self.isUserIDCharacter) else {
                    throw .badArguments(
                        "--user takes a user id (letters, digits, - _ . = and a Matrix id's @ :), not \(text)")
                }
                options.user = text
            case "send":
                guard let conversation = rest.popFirst(), !rest.isEmpty else {
                    throw .badArguments("send takes a conversation id and the text")
                }
                options.oneShot = OneShot(conversation: conversation, text: rest.joined(separator: " "))
                rest = []
            case "--": continue  // what `swift run courier -- …` may pass through
            case "-h", "--help": options.help = true
            default: throw .badArguments("unknown option \(argument)")
            }
        }
        if options.matrix != nil {
            guard options.server == nil else {
                throw .badArguments("--matrix and --server name two backends: pick one")
            }
            guard options.user != nil, options.password != nil else {
                throw .badArguments("--matrix needs --user and --password")
            }
            guard options.oneShot == nil else { throw .badArguments("send is for Courier's own data directories") }
        } else if options.password != nil {
            throw .badArguments("--password is for --matrix")
        }
        return options
    }

    /// What a user id may hold: letters, digits and a Matrix id's punctuation (`@me.one:server`), nothing a path or
    /// a terminal would read.
    private static func isUserIDCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "-_.=@:".contains(character)
    }
}
