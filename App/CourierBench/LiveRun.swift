/// One measurement of `courier-bench live` that advances a step at a time, so that several take turns and all meet
/// the same disk weather (a synced append costs 0.1 ms or 5 ms as the neighbours' I/O goes, from second to second).
@MainActor
protocol LiveRun: AnyObject {
    /// The events or messages it measures.
    var size: Int { get }
    /// Wall-clock seconds of its steps so far.
    var seconds: Double { get }
    /// CPU seconds (user + system) of its steps so far.
    var cpu: Double { get }
    /// How much of its work is done, 0 to 1: the runs of a round take the next step in the order of it, so that all
    /// of them spread over the same stretch of time.
    var progress: Double { get }
    /// Does the next piece of the work, timed; returns false once none is left (then checks the result).
    func step() async throws -> Bool
    /// Closes its client and removes its directory.
    func close()
}
