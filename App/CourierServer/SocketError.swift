#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A socket call failed (the port is taken, descriptors ran out).
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed.
    public var operation: String
    /// Its `errno`.
    public var code: Int32

    public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}
