import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

/// The message screens, made from the container's `CourierClient` as an app makes them: the chat (`makeChat`), the
/// Offline Queue and the banner they share. The client's parts (its outbox, repositories, caches) are the client's
/// to name; this feature only builds screens over it.
@MainActor
public final class MessagingFeature {
    /// The offline banner and the connectivity toast, shared by every screen.
    public let banner: ConnectivityBannerViewModel
    /// The Offline Queue screen, built when first shown: its first state formats every queued message, which a
    /// launch that never shows it should not pay for.
    public var queue: OfflineQueueViewModel {
        if let openedQueue { return openedQueue }
        let queue = OfflineQueueViewModel(session: client, conversationName: conversationName, strings: strings)
        if !isInForeground { queue.enterBackground() }
        openedQueue = queue
        return queue
    }

    private let world: World
    private let client: CourierClient
    private let conversationName: @MainActor (ConversationID) -> String
    private let logger: Logger
    /// The words every screen shows.
    private let strings: CourierStrings
    private var openedQueue: OfflineQueueViewModel?
    private var isInForeground = true

    /// The app went to the background or came back: the Offline Queue (shown or built later) follows.
    func setForeground(_ foreground: Bool) {
        isInForeground = foreground
        if foreground { openedQueue?.enterForeground() } else { openedQueue?.enterBackground() }
    }

    /// Wires the message screens over `client`, the data side the container opened in `world`'s data directory;
    /// they speak `strings`.
    public init(
        world: World, client: CourierClient, conversationName: @escaping @MainActor (ConversationID) -> String,
        logger: Logger, strings: CourierStrings = .english
    ) {
        self.strings = strings
        self.world = world
        self.client = client
        self.conversationName = conversationName
        self.logger = logger
        banner = ConnectivityBannerViewModel(session: client, promptsAtLaunch: true, strings: strings)
        // The banner's Review and the toast's Review First show the Offline Queue (built then, if it was not).
        banner.actions = .init(showOfflineQueue: { [weak self] in self?.queue.present() })
    }

    /// A chat screen for one conversation, made from the client as an app makes it.
    public func makeChat(conversationID: ConversationID, title: String) -> ChatViewModel {
        let chat = ChatViewModel(
            session: client, conversationID: conversationID, title: title, banner: banner, strings: strings)
        // Shown while the app is in the background, it starts there: no timer runs and no status is asked.
        if !isInForeground { chat.enterBackground() }
        // A chat with one other person shows their status under the title.
        let others = world.conversation(conversationID)?.participantIDs.filter { $0 != client.currentUser } ?? []
        if others.count == 1 { chat.showPresence(of: others[0], from: client.users) }
        return chat
    }

    /// Whether anything this feature started is still running.
    public var isBusy: Bool { client.isBusy || banner.hasPendingWork || (openedQueue?.hasPendingWork ?? false) }
}
