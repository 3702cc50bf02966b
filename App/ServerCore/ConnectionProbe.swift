/// What a handler may ask of the connection its request came on while it prepares a late answer (a held long poll):
/// whether the client is still there, so that nobody holds a connection for a client that left.
public struct ConnectionProbe: Sendable {
    private let check: @Sendable () -> Bool

    /// A probe that asks `hungUp` (true once the client closed the connection or it broke).
    public init(hungUp: @escaping @Sendable () -> Bool) { check = hungUp }

    /// Whether the client closed the connection (or it broke): an answer would reach nobody.
    public var clientHungUp: Bool { check() }
}
