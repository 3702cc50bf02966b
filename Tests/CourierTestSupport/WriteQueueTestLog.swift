import Foundation

/// A list an executor closure may append to: executors are `@Sendable` and not main-actor isolated.
public final class WriteQueueTestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    /// Creates an empty log.
    public init() {}

    /// Every entry, in order.
    public var entries: [String] { lock.withLock { stored } }

    /// Appends `entry`.
    public func append(_ entry: String) { lock.withLock { stored.append(entry) } }
}
