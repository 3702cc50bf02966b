import CourierDomain
import Foundation

/// The conversation list: pages of 50, most recent activity first, each row with its title, last-message preview,
/// relative timestamp and unread count.
///
/// - Live activity: messages composed here (the outbox's events) and messages that arrive (the sync's updates)
///   reach the list by themselves; `messageActivity(_:)` reports any other. A new message brings its
///   conversation's activity up to its time, and the row takes its place by activity, most recent first (above
///   rows active at the same instant). A message from someone else counts as unread unless its chat is on screen
///   (`LiveSync.isWatched`, or `chatOpened(_:)`): the user reads it. A read marker (this device's or another's of
///   the user) takes off what it covers — the page's count when it covers the page's last message, and each
///   message counted since up to it; after a relaunch or reload, a read marker still on its way keeps the count
///   cleared. Activity in a conversation not loaded yet waits for its page, which already counts every message of
///   someone else's heard before it was asked for. A pending message the user deletes leaves the preview it
///   covered.
/// - Start-over: when the sync engine starts over, its snapshot's first page replaces the loaded rows in one state
///   (never an empty list in between).
/// - Live timestamps: while in the foreground (the initial phase) the rows' relative times are recomputed every
///   60 s of clock time; a state is emitted only when some text changed. The timer stops in the background and
///   the rows are refreshed on return.
/// - Names come from a `UserDirectory` (a cache), asked once per page for all its participants; a profile change
///   it announces re-renders the titles.
/// - A first page the cache answered for an unreachable backend (`ConversationPage.isCached`) is loaded again by
///   itself once the feed is live: a list opened offline never stays stale after the reconnect.
/// - Releasing the view model ends everything: the directory observation (its token), a page load under way and
///   the timer (their tasks, cancelled on deinit, which takes their sleepers off the clock).
@MainActor
public final class ConversationsListViewModel: StateEmitting {
    /// Conversations per page.
    public static let pageSize = 50
    /// How often relative timestamps are recomputed in the foreground.
    public static let refreshInterval: Duration = .seconds(60)

    // MARK: - Dependencies

    let currentUser: UserID
    private let repository: any ConversationRepository
    private let directory: any UserDirectory
    let sync: any LiveSync
    let outbox: (any MessageOutbox)?
    let deleter: (any ConversationDeleting)?
    let clock: any Clock
    let formatter: RelativeTimeFormatter
    let strings: CourierStrings
    private let pageSize: Int
    private let tasks: TaskTracker
    let refreshTimer: ClockTimer
    let store = StateStore(State())

    // MARK: - Model

    var conversations: [Conversation] = []
    private(set) var names: [UserID: String] = [:]
    var cursor: ConversationCursor?
    var hasLoadedFirstPage = false
    /// Whether the first page shown came from the device's cache (the backend could not be reached): it is asked
    /// for again as soon as the feed is live.
    var showsCachedPage = false
    /// Activity for conversations not loaded yet, applied when their page arrives.
    var pendingActivity: [ConversationID: [(message: Message, heardAfter: Int)]] = [:]
    /// How many page loads have started: activity notes how many had when it was heard.
    private var loadsStarted = 0
    /// Messages already counted, so repeated events for one message (status changes) count once.
    var seenMessages = Set<MessageID>()
    /// Each loaded row's last message and activity as the backend has them, without this device's messages still
    /// waiting to be sent: what a row shows again when the pending message previewed there is deleted.
    var delivered: [ConversationID: (message: Message?, activity: Date)] = [:]
    /// What each loaded row's unread count is made of: the count its page gave, for messages up to the page's last
    /// one (`through`), and the messages of others counted since — so that a read marker takes off what it covers.
    var unreadParts: [ConversationID: (base: Int, through: MessageCursor?, since: [MessageCursor])] = [:]
    /// Conversations the user deleted here: a page that still lists them (the backend not told yet) skips them.
    var deleted = Set<ConversationID>()
    private var isInForeground = true
    /// The conversation whose chat is open: its incoming messages are read as they arrive.
    private(set) var openConversation: ConversationID?
    private var directoryObservation: ObservationToken?
    private var tokens: [ObservationToken] = []

    /// Creates the list for `currentUser`; it starts in the foreground with its timestamp timer running, and
    /// loads nothing until `load()` or `loadMore()`. Activity comes from `outbox` (messages composed here) and
    /// `sync` (what arrives), when given; `deleter` deletes a conversation the user confirms deleting. Its texts are
    /// `strings`'.
    public init(
        currentUser: UserID, conversations: any ConversationRepository, users: any UserDirectory, clock: any Clock,
        outbox: (any MessageOutbox)? = nil, sync: (any LiveSync)? = nil,
        formatter: RelativeTimeFormatter = RelativeTimeFormatter(), pageSize: Int = ConversationsListViewModel.pageSize,
        deleter: (any ConversationDeleting)? = nil, strings: CourierStrings = .english
    ) {
        self.currentUser = currentUser
        repository = conversations
        directory = users
        self.sync = sync ?? SilentSync()
        self.outbox = outbox
        self.deleter = deleter
        self.clock = clock
        self.formatter = formatter.using(strings)
        self.strings = strings
        self.pageSize = max(1, pageSize)
        tasks = TaskTracker(clock: clock)
        refreshTimer = ClockTimer(clock: clock)
        directoryObservation = users.observe { [weak self] user in self?.userChanged(user) }
        if let outbox {
            tokens.append(
                outbox.observe { [weak self] event in
                    switch event {
                    case .changed(let message): self?.messageActivity(message)
                    case .deleted(let id): self?.messageDeleted(id)
                    case .pausedForSignIn: break
                    }
                })
        }
        tokens.append(self.sync.observe { [weak self] update in self?.syncUpdated(update) })
        scheduleRefresh()
    }

    // MARK: - Output

    /// The current state.
    public var state: State { store.state }

    /// Calls `observer` with the current state at once, then with every change, until the token is released.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        store.observe(observer)
    }

    /// Whether a page load started by an input still runs. The timestamp refresh does not count.
    public var hasPendingWork: Bool { !tasks.isIdle }

    // MARK: - Inputs

    /// Starts loading the first page, replacing the rows shown once it arrives; does nothing while a page is
    /// loading.
    public func load() {
        guard !store.state.isLoading else { return }
        loadPage(after: nil)
    }

    /// Starts loading the next page (the first one if none is loaded); does nothing while loading or at the end.
    public func loadMore() {
        guard !store.state.isLoading else { return }
        guard hasLoadedFirstPage else { return loadPage(after: nil) }
        guard store.state.hasMore else { return }
        loadPage(after: cursor)
    }

    /// A message was sent or received (or changed status): a new one brings its conversation's activity up to its
    /// time (the row moves to its place, most recent first), and one from someone else counts as unread.
    public func messageActivity(_ message: Message) {
        // A new message in a deleted conversation brings it back, as the backend does.
        if deleted.contains(message.conversationID), !message.status.isPending || message.senderID != currentUser {
            deleted.remove(message.conversationID)
        }
        guard let index = conversations.firstIndex(where: { $0.id == message.conversationID }) else {
            pendingActivity[message.conversationID, default: []].append((message, loadsStarted))
            return
        }
        var conversation = conversations.remove(at: index)
        let activity = conversation.lastActivity
        apply(message, to: &conversation)
        if conversation.lastActivity == activity {
            conversations.insert(conversation, at: index)
        } else {
            place(conversation)
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
        unreadParts[id] = (0, nil, [])
        render()
    }

    /// The app came to the foreground: refresh the timestamps now and every 60 s from here.
    public func enterForeground() {
        guard !isInForeground else { return }
        isInForeground = true
        render()
        scheduleRefresh()
    }

    /// The app went to the background: stop refreshing timestamps.
    public func enterBackground() {
        guard isInForeground else { return }
        isInForeground = false
        refreshTimer.cancel()
    }

    // MARK: - Loading

    private func loadPage(after cursor: ConversationCursor?) {
        store.update {
            $0.isLoading = true
            $0.error = nil
        }
        loadsStarted += 1
        let load = loadsStarted
        tasks.run { [weak self, repository, directory, currentUser, pageSize] in
            do {
                let page = try await repository.conversations(of: currentUser, after: cursor, limit: pageSize)
                // One directory call per page, for every participant but the signed-in user.
                let others = Set(page.conversations.flatMap(\.participantIDs)).subtracting([currentUser])
                self?.pageLoaded(page, users: await directory.users(others.sorted()), after: cursor, load: load)
            } catch {
                self?.loadFailed(error)
            }
        }
    }

    private func pageLoaded(
        _ page: ConversationPage, users: [UserID: User], after cursor: ConversationCursor?, load: Int
    ) {
        for (id, user) in users { names[id] = user.displayName }
        if cursor == nil {
            conversations = []
            seenMessages = []
            delivered = [:]
            unreadParts = [:]
        }
        if cursor == nil { showsCachedPage = page.isCached }
        merge(page.conversations.map(clearingRead), load: load)
        if let last = page.conversations.last {
            self.cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
        }
        hasLoadedFirstPage = true
        render {
            $0.hasMore = page.hasMore
            $0.isLoading = false
        }
    }

    private func loadFailed(_ error: any Error) {
        store.update {
            $0.isLoading = false
            $0.error = Self.errorText(for: error, in: strings)
        }
    }

    private func userChanged(_ user: User) {
        guard names[user.id] != user.displayName else { return }
        let shown = conversations.contains { $0.participantIDs.contains(user.id) }
        names[user.id] = user.displayName
        if shown { render() }
    }

    private static func errorText(for error: any Error, in strings: CourierStrings) -> String {
        if let error = error as? DeliveryError {
            switch error {
            case .offline: return strings.conversationsOffline
            case .unreachable: return strings.conversationsUnreachable
            case .unauthorized: return strings.deliveryError(error)
            default: break
            }
        }
        return strings.conversationsFailed
    }
}
