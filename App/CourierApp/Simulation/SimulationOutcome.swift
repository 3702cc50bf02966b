/// What one simulated seed did and found.
public struct SimulationOutcome: Hashable, Sendable {
    /// The seed that was run.
    public let seed: UInt64
    /// Steps carried out.
    public var steps = 0
    /// Messages whose compose returned (acknowledged).
    public var composed = 0
    /// Simulated power cuts (the app and the world dropped mid-work, the disk crashed, everything reopened).
    public var crashes = 0
    /// Clean app restarts.
    public var restarts = 0
    /// Reopens whose outbox log had a torn tail to cut off.
    public var tornTailsRecovered = 0
    /// Unsynced writes that a crash dropped or tore.
    public var writesLost = 0
    /// What others did at the backend: messages and receipts of the other participants and of the user's other
    /// device.
    public var peerActions = 0
    /// Quiet points reached, at each of which the convergence invariant was checked.
    public var convergenceChecks = 0
    /// Times the app's feed cursor had expired and it started over from a snapshot.
    public var startOvers = 0
    /// Invariant violations, first first (the run stops at the first).
    public var violations: [String] = []
    /// A hash of everything observable the run did: two runs of one seed must give the same hash.
    public var traceHash: UInt64 = 0

    /// Creates an empty outcome for `seed`.
    public init(seed: UInt64) { self.seed = seed }
}
