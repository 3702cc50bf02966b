/// What a handler may ask of the connection its request came on: whether the client is still there, so that nobody
/// holds a connection for a client that left (a held long poll), and to count the connection as a signed-in user's.
public struct ConnectionProbe: Sendable {
    private let check: @Sendable () -> Bool
    private let claimer: @Sendable (String) -> Bool

    /// A probe that asks `hungUp` (true once the client closed the connection or it broke) and `claim` (whether the
    /// connection may count as the user's: false when that user holds their share of connections already).
    public init(hungUp: @escaping @Sendable () -> Bool, claim: @escaping @Sendable (String) -> Bool = { _ in true }) {
        check = hungUp
        claimer = claim
    }

    /// Whether the client closed the connection (or it broke): an answer would reach nobody.
    public var clientHungUp: Bool { check() }

    /// Counts the connection as `user`'s; false when `user` holds their share of connections already (refuse the
    /// request and close the connection).
    public func claim(for user: String) -> Bool { claimer(user) }
}
