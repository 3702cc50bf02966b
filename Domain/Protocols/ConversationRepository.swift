#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the client asks of the backend about conversations. Every call throws `DeliveryError` alone (typed); a
/// cancelled caller gets `cancelled`.
public protocol ConversationRepository: Sendable {
    /// The page of up to `limit` conversations of `user`, most recent activity first, after `cursor`.
    func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
}
