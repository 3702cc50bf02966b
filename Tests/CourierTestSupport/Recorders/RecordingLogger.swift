import CourierDomain
import Foundation

/// A logger that keeps every line it is given, for a test that checks what the code under test reported — the
/// recording counterpart of `Logger.silent`. Pass `logger` where the code takes one; lines may arrive from any
/// thread.
public final class RecordingLogger: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [(level: LogLevel, message: String)] = []

    /// An empty recording.
    public init() {}

    /// The logger to hand to the code under test: every line it logs is kept here.
    public var logger: Logger {
        Logger { [self] level, message in lock.withLock { kept.append((level, message)) } }
    }

    /// Every line, in order, as `level: message` (`warning: outbox: …`).
    public var lines: [String] { lock.withLock { kept.map { "\($0.level): \($0.message)" } } }

    /// The messages logged at `level`, in order.
    public func messages(at level: LogLevel) -> [String] {
        lock.withLock { kept.filter { $0.level == level }.map(\.message) }
    }
}
