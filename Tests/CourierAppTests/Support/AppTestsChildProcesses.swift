import Testing

/// Tests that start child processes run one at a time: a child spawned by one test must not inherit the pipes of
/// another's child (its end-of-file would never come).
@Suite(.serialized)
enum AppTestsChildProcesses {}
