/// `Tests/Synapse/synapse` ended with a failure: what it was asked and what it said (a log's tail when a server did
/// not start).
struct SynapseScriptError: Error, CustomStringConvertible {
    /// The script's arguments, `start DIR 0 --parent 42`.
    let arguments: [String]
    /// Its exit status.
    let status: Int32
    /// What it printed on standard error.
    let errors: String

    /// What a failing test prints.
    var description: String {
        "Tests/Synapse/synapse \(arguments.joined(separator: " ")) exited \(status):\n\(errors)"
    }
}
