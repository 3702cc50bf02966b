import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DurableOutbox {
    // MARK: - Parts

    /// What an outbox is made with, none of it replaced while it lives: the store, the repositories it sends
    /// through, connectivity, the clock, where ids come from, the user and the limits, the lease of a shared
    /// outbox, where delivered messages are kept, its logger, and what the device holds of a conversation.
    struct Parts {
        let store: any OutboxStore
        let repository: any MessageRepository
        /// Where hand-started sends go: one attempt each.
        let manualRepository: any MessageRepository
        let connectivity: any ConnectivityMonitor
        let clock: any Clock
        let ids: IDGenerator
        let currentUser: UserID
        let limits: Limits
        /// The right to send from a shared outbox; nil when no other process writes it (the outbox always may send).
        let lease: OutboxLease?
        /// Where the messages the backend stored are kept for offline reading, as observers see them.
        let messageCache: (any DeliveredMessageKeeper)?
        let logger: Logger
        /// The timestamp of the newest message the device holds in a conversation (its caches), which a new
        /// message's compose stamp comes after.
        let newestHeld: (ConversationID) -> Date?
    }

    var store: any OutboxStore { parts.store }
    var repository: any MessageRepository { parts.repository }
    var manualRepository: any MessageRepository { parts.manualRepository }
    var connectivity: any ConnectivityMonitor { parts.connectivity }
    var clock: any Clock { parts.clock }
    var ids: IDGenerator { parts.ids }
    var currentUser: UserID { parts.currentUser }
    var limits: Limits { parts.limits }
    var lease: OutboxLease? { parts.lease }
    var messageCache: (any DeliveredMessageKeeper)? { parts.messageCache }
    var logger: Logger { parts.logger }
    var newestHeld: (ConversationID) -> Date? { parts.newestHeld }
}
