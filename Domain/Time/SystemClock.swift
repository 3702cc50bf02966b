#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Real time: `Date()` and `Task.sleep`.
public struct SystemClock: Clock {
    /// Creates the real clock.
    public init() {}
    public var now: Date { Date() }
    public func sleep(until deadline: Date) async throws {
        let interval = deadline.timeIntervalSinceNow
        if interval > 0 { try await Task.sleep(nanoseconds: UInt64(interval * 1e9)) }
        try Task.checkCancellation()
    }
}
