import CourierData
import CourierDomain
import CourierPresentation
import Foundation

/// The message lifecycle, composed: the durable outbox store, the repository stack (offline cache over the retry
/// policy over the network), the outbox service and the view models that show it.
@MainActor
public final class MessagingFeature {
    /// The one durable home of pending messages.
    public let store: FileOutboxStore
    /// Messages seen online, for chats opened offline.
    public let cache: MessageCache
    /// Cache → retry policy → network.
    public let repository: any MessageRepository
    /// The lifecycle service.
    public let outbox: DurableOutbox
    /// The offline banner and the connectivity toast, shared by every screen.
    public let banner: ConnectivityBannerViewModel
    /// The Offline Queue screen, built when first shown: its first state formats every queued message, which a
    /// launch that never shows it should not pay for.
    public var queue: OfflineQueueViewModel {
        if let openedQueue { return openedQueue }
        let queue = OfflineQueueViewModel(
            outbox: outbox, clock: world.clock, conversationName: conversationName, logger: logger)
        openedQueue = queue
        return queue
    }

    private let world: World
    private let cacheStorage: RecordLogStorage
    private let conversationName: @MainActor (ConversationID) -> String
    private let logger: Logger
    private var openedQueue: OfflineQueueViewModel?

    /// Opens the client's message stores in `world`'s data directory and wires the service over them; new
    /// messages take their ids from `ids`.
    public init(world: World, currentUser: UserID, conversationName: @escaping @MainActor (ConversationID) -> String,
                ids: IDGenerator, logger: Logger) throws {
        self.world = world
        self.conversationName = conversationName
        self.logger = logger
        let client = world.directory.appendingPathComponent("client")
        store = try FileOutboxStore(directory: client, fileSystem: world.fileSystem, logger: logger)
        cacheStorage = try RecordLogStorage(
            path: client.appendingPathComponent("messages.log").path, fileSystem: world.fileSystem, logger: logger)
        cache = try MessageCache(storage: cacheStorage, logger: logger)
        world.noteRecovery(of: "client/\(FileOutboxStore.fileName)", store.recovery)
        world.noteRecovery(of: "client/messages.log", cacheStorage.report)
        let retrying = RetryingMessageRepository(
            base: world.network, clock: world.clock, random: world.random, connectivity: world.network)
        repository = CachingMessageRepository(wrapping: retrying, cache: cache)
        // Retry and Send Now: one attempt within the timeout — the backoff chain is for the outbox's own sends.
        let once = RetryingMessageRepository(
            base: world.network, policy: RetryPolicy(maxRetries: 0), clock: world.clock, random: world.random,
            connectivity: world.network)
        outbox = DurableOutbox(
            store: store, repository: repository,
            manualRepository: CachingMessageRepository(wrapping: once, cache: cache), connectivity: world.network,
            clock: world.clock, ids: ids, currentUser: currentUser, policy: world.settings.policy, logger: logger)
        banner = ConnectivityBannerViewModel(
            connectivity: world.network, outbox: outbox, clock: world.clock, logger: logger, promptsAtLaunch: true)
    }

    /// A chat screen for one conversation.
    public func makeChat(conversationID: ConversationID, title: String, currentUser: UserID) -> ChatViewModel {
        ChatViewModel(
            conversationID: conversationID, currentUser: currentUser, title: title, outbox: outbox,
            repository: repository, connectivity: world.network, banner: banner, clock: world.clock)
    }

    /// Whether anything this feature started is still running.
    public var isBusy: Bool { outbox.isBusy || banner.hasPendingWork || (openedQueue?.hasPendingWork ?? false) }

    /// Closes the files.
    public func close() {
        outbox.stop()
        store.close()
        cacheStorage.close()
    }
}
