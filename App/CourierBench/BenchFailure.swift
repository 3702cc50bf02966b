import Foundation

/// A benchmark's check failed: the run measured the wrong thing, so it stops (exit 1).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "FAIL: " + description }
}
