#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When queued messages go out once the device is back online.
public enum SendPolicy: String, Codable, Sendable, CaseIterable {
    /// Wait for the user: the connectivity toast asks "Auto-send N queued messages?".
    case manual
    /// Send by itself on reconnect.
    case automatic
}
