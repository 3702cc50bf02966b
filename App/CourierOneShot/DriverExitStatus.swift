/// The `courier` command's exit statuses (docs/driver.md, "Invocation").
public enum DriverExitStatus: Int32, Sendable {
    /// Every command succeeded.
    case success = 0
    /// A command failed; a script stops at it.
    case commandFailed = 1
    /// The invocation is wrong: an unknown option, a missing script, `--fresh` on a directory that is not Courier's.
    case badInvocation = 2
    /// The data directory cannot be opened: in use by another process, unreadable, someone else's.
    case dataDirectoryUnavailable = 3
}
