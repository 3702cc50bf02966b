/// A default route (to `0.0.0.0/0` or `::/0`) in the kernel's main table: the interface it leaves by and its
/// metric (the lower, the more preferred).
struct DefaultRoute: Equatable, Sendable {
    /// The interface the route leaves by.
    var interface: String
    /// The route's metric; among several default routes the kernel uses the lowest.
    var metric: UInt32

    /// Creates a default route over `interface`.
    init(interface: String, metric: UInt32 = 0) {
        self.interface = interface
        self.metric = metric
    }
}
