import Testing

/// A test trait: every temporary directory a test of the suite makes (`TemporaryDirectory`, `unusedURL`) is removed
/// when the test ends — passed, failed or thrown — and one that cannot be removed fails the test. A test under it
/// needs no `defer` to remove its directories. A temporary directory made by a test without it fails that test, so
/// no suite forgets it.
public struct RemovesTemporaryDirectories: SuiteTrait, TestTrait, TestScoping {
    /// Applies to every test of a suite, nested suites too.
    public var isRecursive: Bool { true }

    /// Runs each test case (not a whole suite) in a scope of its own.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test with a ledger of its directories, then removes them.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        let ledger = TemporaryDirectoryLedger()
        defer {
            for url in ledger.removeAll() {
                Issue.record("a temporary directory could not be removed when the test ended: \(url.path)")
            }
        }
        try await TemporaryDirectoryLedger.$current.withValue(ledger) { try await function() }
    }
}

extension Trait where Self == RemovesTemporaryDirectories {
    /// Every temporary directory a test makes is removed when it ends (see `RemovesTemporaryDirectories`).
    public static var removesTemporaryDirectories: Self { RemovesTemporaryDirectories() }
}
