#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A seeded generator shared safely between callers.
public final class LockedRandom: @unchecked Sendable {
    private let lock = Lock()
    private var generator: SeededRandom

    /// Creates a shared generator from a seed.
    public init(seed: UInt64) { generator = SeededRandom(seed: seed) }

    /// Runs `body` with exclusive access to the generator.
    public func withGenerator<T>(_ body: (inout SeededRandom) -> T) -> T {
        lock.withLock { body(&generator) }
    }

    /// A uniformly distributed value in 0..<1.
    public func nextUnit() -> Double { withGenerator { $0.nextUnit() } }
}
