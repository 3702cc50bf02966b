import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import CourierPresentation
import Foundation

/// The app, composed over a `World`: one feature object per area (messaging, conversations) building its own parts,
/// and the profile screen's view model. Dropping the container and building a new one over the same world is an app
/// restart.
@MainActor
public final class AppContainer {
    /// The user a new data directory signs in as.
    public static let demoUser: UserID = "me"

    /// The signed-in user: the data directory's owner.
    public var currentUser: UserID { world.user }

    /// The world the app runs in.
    public let world: World
    /// Work the driver starts (page loads).
    public let tracker: TaskTracker
    /// Conversation list and user cache.
    public let conversations: ConversationsFeature
    /// Outbox, repositories and the message screens.
    public let messaging: MessagingFeature
    /// Profile edits through the offline write queue.
    public let profile: ProfileViewModel
    /// The open chat, if any.
    public private(set) var chat: ChatViewModel?
    /// The data side: the client's folder, its stores, outbox, caches and write queue (`CourierClient`).
    public let client: CourierClient
    /// Where message ids come from (the directory's durable id space).
    public let ids: IDGenerator

    private var tokens: [ObservationToken] = []

    /// Builds the app over `world`'s data directory; its screens speak `strings` (an app's own table replaces the
    /// English one as a whole or in part: docs/architecture.md).
    public init(world: World, logger: Logger = .silent, strings: CourierStrings = .english) throws {
        self.world = world
        tracker = TaskTracker(clock: world.clock)
        let idSpace = try DurableIDSpace(
            path: WorldFiles.idSpacePath(in: world.directory), fileSystem: world.fileSystem, logger: logger)
        // The data side is the library's entry point over the client's folder; the world (fake backend, network
        // conditioner, demo data) is just the configuration it is given.
        let client = try CourierClient(
            directory: world.directory.appendingPathComponent("client"), currentUser: world.user,
            messages: world.network, conversations: world.network, users: world.network,
            connectivity: world.network, clock: world.clock, ids: idSpace.generator, policy: world.settings.policy,
            random: world.random,
            writeExecutors: [
                ProfileViewModel.displayNameKind: Self.displayNameExecutor(
                    network: world.network, user: world.user),
                CourierClient.hideConversationKind: Self.hideConversationExecutor(network: world.network),
            ],
            feed: world.network, probeRandom: world.probeRandom, fileSystem: world.fileSystem, logger: logger)
        self.client = client
        ids = idSpace.generator
        let reported: Set<String> = [
            FileOutboxStore.fileName, "messages.log", "writes.log", "sync.log", "receipts.log", "users.log",
        ]
        for (file, report) in client.recoveries where reported.contains(file) {
            world.noteRecovery(of: "client/\(file)", report)
        }
        let conversations = ConversationsFeature(client: client, directory: world, strings: strings)
        self.conversations = conversations
        messaging = MessagingFeature(
            world: world, client: client, conversationName: { id in conversations.title(of: id) ?? id.rawValue },
            logger: logger, strings: strings)
        profile = ProfileViewModel(session: client, writes: client.writes, strings: strings)
    }

    /// Whether every piece of work a command started is done (timers such as the toast's do not count).
    public var isIdle: Bool {
        tracker.isIdle && !messaging.isBusy && !profile.hasPendingWork && !(chat?.hasPendingWork ?? false)
            && !conversations.list.hasPendingWork && !isSyncSettling
    }

    /// Whether the sync engine still brings in what the backend holds for this user: a catch-up under way, or (with
    /// the in-process backend) a live connection whose answer is on its way. A request that failed is retried in
    /// the background: nothing waits for it.
    public var isSyncSettling: Bool {
        guard world.network.isOnline else { return false }
        // The in-process backend's feed end is known here; a remote one's is not.
        return client.isSyncSettling(
            feedEnd: world.network.remote == nil ? world.backend.feedEndPosition(for: client.currentUser) : nil)
    }

    /// What a display-name write does online: asks `network` to change `user`'s name.
    static func displayNameExecutor(network: NetworkConditioner, user: UserID) -> OfflineWriteQueue.Executor {
        { write in
            let name: String = try write.decodePayload()
            try await network.updateDisplayName(of: user, to: name)
        }
    }

    /// What a "hide this conversation" write does online: asks `network` to hide it from the signed-in user's list.
    static func hideConversationExecutor(network: NetworkConditioner) -> OfflineWriteQueue.Executor {
        { write in
            let id: String = try write.decodePayload()
            try await network.hideConversation(ConversationID(id))
        }
    }

    /// Closes the open chat, if any.
    public func closeChat() {
        chat = nil
        conversations.list.chatOpened(nil)
    }

    /// Opens a chat (closing the one open before). Returns nil for an unknown conversation.
    @discardableResult
    public func openChat(_ id: ConversationID) -> ChatViewModel? {
        guard let title = conversations.title(of: id) else { return nil }
        chat = nil
        let chat = messaging.makeChat(conversationID: id, title: title)
        self.chat = chat
        conversations.list.chatOpened(id)
        chat.start()
        return chat
    }

    /// Whether the app is in the foreground (`enterBackground()` / `enterForeground()`).
    public private(set) var isInForeground = true

    /// The app went to the background: every screen's timer stops (the list's, the open chat's, the Offline
    /// Queue's) and the live connection closes; what arrives meanwhile is caught up on return.
    public func enterBackground() {
        isInForeground = false
        conversations.list.enterBackground()
        chat?.enterBackground()
        messaging.setForeground(false)
        client.enterBackground()
    }

    /// The app is back: every screen redraws its times once and refreshes them again; the client catches up.
    public func enterForeground() {
        isInForeground = true
        conversations.list.enterForeground()
        chat?.enterForeground()
        messaging.setForeground(true)
        client.enterForeground()
    }

    /// Closes the files; the container is not used afterwards.
    public func close() {
        chat = nil
        tokens.removeAll()
        client.close()
    }
}
