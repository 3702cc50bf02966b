import Foundation

/// What happened, in order, as lines a test compares: appended to from any task or thread, read whole.
public final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// An empty log.
    public init() {}

    /// Every entry so far, oldest first.
    public var entries: [String] { lock.withLock { lines } }

    /// Adds `entry` at the end.
    public func append(_ entry: String) { lock.withLock { lines.append(entry) } }
}
