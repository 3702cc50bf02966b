import CourierData

/// Something opening the data directory had to skip, cut or replace: a store's damaged records or torn tail, or a
/// field of `world.json` that could not be used. The driver says each out loud (standard error, and `storage.recovered`
/// in its state document).
public struct RecoveredDamage: Equatable, Sendable, CustomStringConvertible {
    /// The file, relative to the data directory (`client/outbox.log`, `world.json`).
    public var file: String
    /// For a record log: what its replay skipped and cut.
    public var report: RecoveryReport?
    /// For the settings: the field that was replaced by its default, and why.
    public var problem: WorldSettingsProblem?

    /// Damage a record log's replay repaired.
    public init(file: String, report: RecoveryReport) {
        self.file = file
        self.report = report
    }

    /// A settings field replaced by its default.
    public init(file: String, problem: WorldSettingsProblem) {
        self.file = file
        self.problem = problem
    }

    public var description: String {
        if let report { return "\(file): \(report)" }
        if let problem { return "\(file): \(problem)" }
        return file
    }
}
