#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the client asks of the backend about users. Every call throws `DeliveryError` alone (typed); a cancelled
/// caller gets `cancelled`.
public protocol UserRepository: Sendable {
    /// The profiles of these users (unknown ids are left out).
    func users(_ ids: [UserID]) async throws(DeliveryError) -> [User]
    /// Whether these users are online.
    func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence]
}
