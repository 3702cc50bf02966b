import CourierDomain
import Foundation

/// The conversation list: pages of 50, most recent activity first, each row with its title, last-message preview,
/// relative timestamp and unread count.
///
/// - Live activity: the app reports every message sent or received with `messageActivity(_:)` (from the outbox's
///   `changed` events and the backend's incoming messages); a new message moves its conversation to the top. A
///   message from someone else counts as unread unless its chat is open (`chatOpened(_:)`): the user reads it.
/// - Live timestamps: while in the foreground (the initial phase) the rows' relative times are recomputed every
///   60 s of clock time; a state is emitted only when some text changed. The timer stops in the background and
///   the rows are refreshed on return.
/// - Names come from a `UserDirectory` (a cache), asked once per page for all its participants; a profile change
///   it announces re-renders the titles.
/// - Releasing the view model ends everything: the directory observation (its token) and the timer (its task,
///   cancelled on deinit, which takes its sleeper off the clock).
@MainActor
public final class ConversationsListViewModel: StateEmitting {
    /// The state a screen renders.
    public typealias State = ConversationsListState

    /// Conversations per page.
    public static let pageSize = 50
    /// How often relative timestamps are recomputed in the foreground.
    public static let refreshInterval: Duration = .seconds(60)

    // MARK: - Dependencies

    private let currentUser: UserID
    private let repository: any ConversationRepository
    private let directory: any UserDirectory
    private let clock: any Clock
    private let formatter: RelativeTimeFormatter
    private let pageSize: Int
    private let store = StateStore(State())

    // MARK: - Model

    private var conversations: [Conversation] = []
    private var names: [UserID: String] = [:]
    private var cursor: ConversationCursor?
    private var hasLoadedFirstPage = false
    /// Activity for conversations not loaded yet, applied when their page arrives.
    private var pendingActivity: [ConversationID: [Message]] = [:]
    /// Messages already counted, so repeated events for one message (status changes) count once.
    private var seenMessages = Set<MessageID>()
    private var isInForeground = true
    /// The conversation whose chat is open: its incoming messages are read as they arrive.
    private var openConversation: ConversationID?
    private var timer: TrackedTask<Void>?
    private var directoryObservation: ObservationToken?

    /// Creates the list for `currentUser`; it starts in the foreground with its timestamp timer running, and
    /// loads nothing until `load()` or `loadMore()`.
    public init(
        currentUser: UserID, conversations: any ConversationRepository, users: any UserDirectory, clock: any Clock,
        formatter: RelativeTimeFormatter = RelativeTimeFormatter(), pageSize: Int = ConversationsListViewModel.pageSize
    ) {
        self.currentUser = currentUser
        repository = conversations
        directory = users
        self.clock = clock
        self.formatter = formatter
        self.pageSize = max(1, pageSize)
        directoryObservation = users.observe { [weak self] user in self?.userChanged(user) }
        startTimer()
    }

    deinit { timer?.cancel() }

    // MARK: - Output

    /// The current state.
    public var state: State { store.state }

    /// Calls `observer` with the current state at once, then with every change, until the token is released.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        store.observe(observer)
    }

    // MARK: - Inputs

    /// Loads the first page, replacing the rows shown; does nothing while a page is loading.
    public func load() async {
        guard !store.state.isLoading else { return }
        await loadPage(after: nil)
    }

    /// Loads the next page (the first one if none is loaded); does nothing while loading or at the end.
    public func loadMore() async {
        guard !store.state.isLoading else { return }
        guard hasLoadedFirstPage else { return await loadPage(after: nil) }
        guard store.state.hasMore else { return }
        await loadPage(after: cursor)
    }

    /// A message was sent or received (or changed status): a new one moves its conversation to the top, and one
    /// from someone else counts as unread.
    public func messageActivity(_ message: Message) {
        guard let index = conversations.firstIndex(where: { $0.id == message.conversationID }) else {
            pendingActivity[message.conversationID, default: []].append(message)
            return
        }
        var conversation = conversations[index]
        if apply(message, to: &conversation) {
            conversations.remove(at: index)
            conversations.insert(conversation, at: 0)
        } else {
            conversations[index] = conversation
        }
        render()
    }

    /// The chat of `id` opened (nil: closed): its row's unread count clears, and while it stays open its incoming
    /// messages are not counted as unread.
    public func chatOpened(_ id: ConversationID?) {
        openConversation = id
        guard let id, let index = conversations.firstIndex(where: { $0.id == id }),
            conversations[index].unreadCount > 0
        else { return }
        conversations[index].unreadCount = 0
        render()
    }

    /// The app came to the foreground: refresh the timestamps now and every 60 s from here.
    public func enterForeground() {
        guard !isInForeground else { return }
        isInForeground = true
        render()
        startTimer()
    }

    /// The app went to the background: stop refreshing timestamps.
    public func enterBackground() {
        guard isInForeground else { return }
        isInForeground = false
        timer?.cancel()
        timer = nil
    }

    // MARK: - Loading

    private func loadPage(after cursor: ConversationCursor?) async {
        store.update {
            $0.isLoading = true
            $0.error = nil
        }
        do {
            let page = try await repository.conversations(of: currentUser, after: cursor, limit: pageSize)
            let participants = Set(page.conversations.flatMap(\.participantIDs)).subtracting([currentUser])
            for (id, user) in await directory.users(participants.sorted()) { names[id] = user.displayName }
            if cursor == nil {
                conversations = []
                seenMessages = []
            }
            merge(page.conversations)
            if let last = page.conversations.last {
                self.cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
            }
            hasLoadedFirstPage = true
            render {
                $0.hasMore = page.hasMore
                $0.isLoading = false
            }
        } catch {
            store.update {
                $0.isLoading = false
                $0.error = Self.errorText(for: error)
            }
        }
    }

    /// Appends a page in the backend's order; a row already shown keeps its place (it was moved by activity).
    private func merge(_ page: [Conversation]) {
        let shown = Set(conversations.map(\.id))
        for var conversation in page where !shown.contains(conversation.id) {
            var moved = false
            for message in pendingActivity.removeValue(forKey: conversation.id) ?? [] {
                moved = apply(message, to: &conversation) || moved
            }
            if moved { conversations.insert(conversation, at: 0) } else { conversations.append(conversation) }
        }
    }

    /// Applies a message to a conversation; returns whether it is new activity (which moves the row to the top).
    private func apply(_ message: Message, to conversation: inout Conversation) -> Bool {
        let isNew = seenMessages.insert(message.id).inserted && conversation.lastMessage?.id != message.id
        if conversation.lastMessage?.id == message.id {
            conversation.lastMessage = message
        } else if isNew {
            if conversation.lastMessage.map({ Message.composeOrder($0, message) }) ?? true {
                conversation.lastMessage = message
            }
            conversation.lastActivity = max(conversation.lastActivity, message.timestamp)
            if message.senderID != currentUser, conversation.id != openConversation { conversation.unreadCount += 1 }
        }
        return isNew
    }

    private func userChanged(_ user: User) {
        guard names[user.id] != user.displayName else { return }
        let shown = conversations.contains { $0.participantIDs.contains(user.id) }
        names[user.id] = user.displayName
        if shown { render() }
    }

    private static func errorText(for error: any Error) -> String {
        if let error = error as? DeliveryError {
            switch error {
            case .offline: return "No internet connection. Showing the conversations loaded so far."
            case .unauthorized, .forbidden: return error.userMessage
            default: break
            }
        }
        return "Couldn't load conversations. Please try again."
    }

    // MARK: - Timestamps

    private func startTimer() {
        timer?.cancel()
        let clock = self.clock
        timer = clock.task { [weak self] in
            while !Task.isCancelled {
                // Coalescing: after a long jump of time the list refreshes once, not once per minute skipped.
                let deadline = clock.now.addingTimeInterval(Self.refreshInterval.timeInterval)
                do { try await clock.sleepCoalescing(until: deadline) } catch { return }
                guard let self else { return }
                self.render()
            }
        }
    }

    // MARK: - Rendering

    private func render(_ change: (inout State) -> Void = { _ in }) {
        let now = clock.now
        let items = conversations.map { item(for: $0, now: now) }
        store.update {
            $0.items = items
            change(&$0)
        }
    }

    private func item(for conversation: Conversation, now: Date) -> ConversationsListItem {
        ConversationsListItem(
            id: conversation.id, title: title(of: conversation), preview: preview(of: conversation.lastMessage),
            timestamp: formatter.string(for: conversation.lastActivity, relativeTo: now),
            unreadCount: conversation.unreadCount)
    }

    private func title(of conversation: Conversation) -> String {
        if let name = conversation.name, !name.isEmpty { return name }
        let others = conversation.participantIDs.filter { $0 != currentUser }
        let shown = others.isEmpty ? [currentUser] : others
        return shown.map { names[$0] ?? $0.rawValue }.joined(separator: ", ")
    }

    private func preview(of message: Message?) -> String {
        guard let message else { return "" }
        if let media = message.media { return media.thumbnailURL ?? media.url }
        return message.text
    }
}
