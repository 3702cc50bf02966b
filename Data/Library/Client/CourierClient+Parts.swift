import CourierDomain
import CourierStore
import Foundation

extension CourierClient {
    // MARK: - Parts

    /// What a client runs, made when it opens and never replaced: connectivity and the backend's reachability, the
    /// repository stack, the user cache, the write queue, the outbox and, with a feed, the sync engine.
    struct Parts {
        let connectivity: any ConnectivityMonitor
        let reachability: BackendReachability
        let messages: any MessageRepository
        let conversations: any ConversationRepository
        let users: UserCache
        let writes: OfflineWriteQueue
        let outbox: DurableOutbox
        let syncEngine: SyncEngine?
    }

    /// Whether the device is online: it has a path (the monitor the app gave) and the backend can be reached.
    public var connectivity: any ConnectivityMonitor { parts.connectivity }
    /// Whether the backend answers, learned from every request, and probed while it does not.
    package var reachability: BackendReachability { parts.reachability }
    /// Messages: the message cache → the retry policy → the app's repository.
    public var messages: any MessageRepository { parts.messages }
    /// Conversations: the conversation cache → the app's repository.
    public var conversations: any ConversationRepository { parts.conversations }
    /// Users' profiles and presence, cached.
    public var users: UserCache { parts.users }
    /// The offline write queue (profile edits and other writes the app registers executors for).
    public var writes: OfflineWriteQueue { parts.writes }
    /// The message lifecycle service: composes durably, sends in order per conversation, keeps failed messages.
    public var outbox: DurableOutbox { parts.outbox }
    /// The receive side, when the app gave an event feed: the cursor, catch-up, live updates, receipts. Screens read
    /// it as `sync`.
    package var syncEngine: SyncEngine? { parts.syncEngine }

    // MARK: - Files

    /// What a client holds open in its directory: the directory's lock, the disk, and the stores and logs in it —
    /// the outbox's store, the message and conversation caches, the write queue's journal, with a feed the sync's
    /// cursor and receipts, and the names and presence seen.
    struct Files {
        let lock: DataDirectoryLock
        let fileSystem: any FileSystem
        let store: FileOutboxStore
        let messageCache: MessageCache
        let conversationCache: ConversationCache
        let messageLog: RecordLogStorage
        let conversationLog: RecordLogStorage
        let writeLog: RecordLogStorage
        let syncLogs: [RecordLogStorage]
        let userLog: RecordLogStorage

        /// Closes the outbox's store and every log, in the order they were opened; the lock stays held.
        func close() {
            store.close()
            messageLog.close()
            conversationLog.close()
            writeLog.close()
            for log in syncLogs { log.close() }
            userLog.close()
        }
    }

    /// The one durable home of pending messages, under the outbox.
    package var store: FileOutboxStore { files.store }
    /// Messages seen online, for chats opened offline.
    package var messageCache: MessageCache { files.messageCache }
    /// Conversations seen online (previews, unread counts), for the list offline.
    package var conversationCache: ConversationCache { files.conversationCache }
}
