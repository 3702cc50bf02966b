import Testing

/// A test trait: every temporary directory a test of the suite makes (`TemporaryDirectory`, `unusedURL`) is removed
/// when the test ends — passed, failed or thrown — after the fixtures that hold files open in them are closed
/// (`TemporaryDirectory.closeWhenTestEnds`), and one that cannot be removed fails the test. A test under it needs no
/// `defer` to remove its directories or close such fixtures. A temporary directory made by a test without it fails that test, so
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
        var failure: (any Error)?
        do {
            try await TemporaryDirectoryLedger.$current.withValue(ledger) { try await function() }
        } catch {
            failure = error
        }
        for url in await ledger.end() {
            Issue.record("a temporary directory could not be removed when the test ended: \(url.path)")
        }
        if let failure { throw failure }
    }
}

extension Trait where Self == RemovesTemporaryDirectories {
    /// Every temporary directory a test makes is removed when it ends (see `RemovesTemporaryDirectories`).
    public static var removesTemporaryDirectories: Self { RemovesTemporaryDirectories() }
}
