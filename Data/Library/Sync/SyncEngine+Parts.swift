import CourierDomain
import CourierStore

extension SyncEngine {
    // MARK: - Parts

    /// What an engine is made with and works through, none of it replaced while it runs: the feed it follows, the
    /// caches and the outbox it applies the feed to, the queue its receipts wait in, connectivity, the clock, its
    /// settings and its logger.
    struct Parts {
        let feed: any EventFeed
        let messageCache: MessageCache
        let conversationCache: ConversationCache
        let outbox: any MessageOutbox
        let receipts: OfflineWriteQueue
        let connectivity: any ConnectivityMonitor
        let clock: any Clock
        let settings: SyncSettings
        let logger: Logger
    }

    var feed: any EventFeed { parts.feed }
    var messageCache: MessageCache { parts.messageCache }
    var conversationCache: ConversationCache { parts.conversationCache }
    var outbox: any MessageOutbox { parts.outbox }
    /// Where receipts wait until the backend has them.
    public var receipts: OfflineWriteQueue { parts.receipts }
    var connectivity: any ConnectivityMonitor { parts.connectivity }
    var clock: any Clock { parts.clock }
    var settings: SyncSettings { parts.settings }
    var logger: Logger { parts.logger }
}
