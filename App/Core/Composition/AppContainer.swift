import CourierData
import CourierDomain
import CourierPresentation
import Foundation

/// The app, composed over a `World`: one feature object per area (messaging, conversations, profile), each
/// building its own parts. Dropping the container and building a new one over the same world is an app restart.
@MainActor
public final class AppContainer {
    /// The signed-in user of the demo.
    public static let currentUser: UserID = "me"

    /// The world the app runs in.
    public let world: World
    /// Work the app layer starts (page loads, syncs).
    public let tracker: WorkTracker
    /// Conversation list and user cache.
    public let conversations: ConversationsFeature
    /// Outbox, repositories and the message screens.
    public let messaging: MessagingFeature
    /// Profile edits through the offline write queue.
    public let profile: ProfileFeature
    /// The open chat, if any.
    public private(set) var chat: ChatViewModel?

    private var tokens: [ObservationToken] = []

    /// Builds the app over `world`'s data directory.
    public init(world: World, logger: Logger = .silent) throws {
        self.world = world
        tracker = WorkTracker(clock: world.clock)
        let idSpace = try DurableIDSpace(
            path: World.idSpacePath(in: world.directory), fileSystem: world.fileSystem, logger: logger)
        let conversations = try ConversationsFeature(world: world, currentUser: Self.currentUser, logger: logger)
        self.conversations = conversations
        messaging = try MessagingFeature(
            world: world, currentUser: Self.currentUser,
            conversationName: { id in conversations.title(of: id) ?? id.rawValue }, ids: idSpace.generator,
            logger: logger)
        profile = try ProfileFeature(
            world: world, users: conversations.users, currentUser: Self.currentUser, tracker: tracker,
            ids: idSpace.generator, logger: logger)
        let list = conversations.list
        tokens.append(
            messaging.outbox.observe { event in
                if case .changed(let message) = event { list.messageActivity(message) }
            })
    }

    /// Whether every piece of work a command started is done (timers such as the toast's do not count).
    public var isIdle: Bool {
        tracker.running == 0 && !messaging.isBusy && !(chat?.hasPendingWork ?? false)
    }

    /// Opens a chat (closing the one open before). Returns nil for an unknown conversation.
    @discardableResult
    public func openChat(_ id: ConversationID) -> ChatViewModel? {
        guard let title = conversations.title(of: id) else { return nil }
        chat = nil
        let chat = messaging.makeChat(conversationID: id, title: title, currentUser: Self.currentUser)
        self.chat = chat
        conversations.list.chatOpened(id)
        chat.start()
        return chat
    }

    /// Closes the files; the container is not used afterwards.
    public func close() {
        chat = nil
        tokens.removeAll()
        messaging.close()
        profile.close()
        conversations.close()
    }
}
