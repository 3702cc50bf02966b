/// A small injected logger: library code never prints.
public struct Logger: Sendable {
    private let sink: @Sendable (LogLevel, String) -> Void

    /// Creates a logger that hands every line to `sink`.
    public init(_ sink: @escaping @Sendable (LogLevel, String) -> Void) { self.sink = sink }

    /// Logs `message` at `level`.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) { sink(level, message()) }

    /// A logger that drops everything.
    public static let silent = Logger { _, _ in }
}
