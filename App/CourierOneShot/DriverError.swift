/// Why a driver command could not be carried out (exit status 1), or why the driver could not start.
public enum DriverError: Error, Equatable, CustomStringConvertible {
    /// The first word is not a command.
    case unknownCommand(String)
    /// The arguments are wrong.
    case badArguments(String)
    /// The command has nothing to act on, or the app refused it.
    case failed(String)
    /// An `expect` did not hold.
    case expectationFailed(String)

    public var description: String {
        switch self {
        case .unknownCommand(let word): "unknown command '\(word)' (try 'help')"
        case .badArguments(let text): text
        case .failed(let text): text
        case .expectationFailed(let text): "expectation failed: \(text)"
        }
    }
}
