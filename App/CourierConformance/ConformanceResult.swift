/// The outcome of one check: passed, failed with a reason, or skipped because the options do not allow it.
public struct ConformanceResult: Equatable, Sendable, CustomStringConvertible {
    /// What the check established.
    public enum Outcome: Equatable, Sendable {
        /// The backend kept the contract.
        case passed
        /// The backend broke the contract, or the check could not be made; the reason says which.
        case failed(String)
        /// Not checked (a second user is needed, or the users share no conversation); the reason says why.
        case skipped(String)
    }

    /// The check.
    public var check: ConformanceCheck
    /// What it found.
    public var outcome: Outcome

    /// Creates a result.
    public init(check: ConformanceCheck, outcome: Outcome) {
        self.check = check
        self.outcome = outcome
    }

    /// Whether the check failed.
    public var failed: Bool {
        if case .failed = outcome { return true }
        return false
    }

    /// The line `courier-conformance` prints: `ok   name`, `FAIL name: reason` or `skip name: reason`.
    public var description: String {
        let name = check.rawValue
        return switch outcome {
        case .passed: "ok   \(name)"
        case .failed(let reason): "FAIL \(name): \(reason)"
        case .skipped(let reason): "skip \(name): \(reason)"
        }
    }
}

/// Every result of a run, in the order the checks ran.
public struct ConformanceReport: Equatable, Sendable {
    /// The results.
    public var results: [ConformanceResult]

    /// Whether no check failed (skipped ones do not count against the backend).
    public var passed: Bool { !results.contains(where: \.failed) }

    /// The results that failed.
    public var failures: [ConformanceResult] { results.filter(\.failed) }

    /// The outcome of `check`, if it ran.
    public func outcome(of check: ConformanceCheck) -> ConformanceResult.Outcome? {
        results.first { $0.check == check }?.outcome
    }

    /// The closing line: `23 checks: 21 ok, 0 failed, 2 skipped`.
    public var summary: String {
        let passed = results.filter { $0.outcome == .passed }.count
        let failed = failures.count
        return "\(results.count) checks: \(passed) ok, \(failed) failed, \(results.count - passed - failed) skipped"
    }
}
