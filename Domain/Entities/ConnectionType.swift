/// The medium a network path runs over, as a screen or a send policy would name it.
///
/// The raw values are the words themselves (`"wifi"`, `"cellular"`, …), so they can be shown, logged and compared
/// as they are.
public enum ConnectionType: String, Codable, Sendable, CaseIterable {
    /// A wireless LAN.
    case wifi
    /// A mobile data network: metered, as a rule.
    case cellular
    /// A cable: Ethernet, or a virtual link that behaves like one.
    case wired
    /// Any other medium: a tunnel, a bridge of unknown kind, a link the platform does not name.
    case other
    /// No medium: nothing is up.
    case none
}
