import CourierDomain
import Foundation

/// The conversation list: pages of 50, most recent activity first, each row with its title, last-message preview,
/// relative timestamp and unread count.
///
/// - One truth for a row: a row's preview, activity, unread count and read state are the sync's
///   (docs/design.md §2.7). Each page is handed to the sync, which answers its rows as it holds them
///   (`LiveSync.reconcile(_:requestedAt:)`), and the rows the sync writes as the feed arrives (`SyncUpdate.rows`) replace
///   theirs by id, taking their place by activity, most recent first (above rows active at the same instant).
///   The list counts nothing itself. What only this device knows it adds on top: a message composed here (the
///   outbox's events, or `messageActivity(_:)`) is its row's preview while the row has nothing newer, and a
///   pending message the user deletes leaves the preview it covered; the open chat's row (`chatOpened(_:)`) shows
///   nothing unread.
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
    private let pageSize: Int
    /// What the list works through, and the tracker and timer its work runs on
    /// (`ConversationsListViewModel+Parts.swift` reads each by its name).
    let parts: Parts
    let store = StateStore(State())

    // MARK: - Model

    var conversations: [Conversation] = []
    private(set) var names: [UserID: String] = [:]
    var cursor: ConversationCursor?
    var hasLoadedFirstPage = false
    /// Whether the first page shown came from the device's cache (the backend could not be reached): it is asked
    /// for again as soon as the feed is live.
    var showsCachedPage = false
    /// Each loaded row as the sync holds it (from a page or `SyncUpdate.rows`), before what only this device knows.
    var rows: [ConversationID: Conversation] = [:]
    /// What only this device knows of the rows: messages composed here, conversations deleted here, the open chat
    /// (`LocalActivity`).
    var local = LocalActivity()
    private var isInForeground = true
    /// The directory's, the outbox's and the sync's observations, ended with the view model.
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
        parts = Parts(
            repository: conversations, directory: users, sync: sync ?? SilentSync(), outbox: outbox, deleter: deleter,
            clock: clock, formatter: formatter.using(strings), strings: strings, tasks: TaskTracker(clock: clock),
            refreshTimer: ClockTimer(clock: clock))
        self.pageSize = max(1, pageSize)
        tokens.append(users.observe { [weak self] user in self?.userChanged(user) })
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
        tokens.append(parts.sync.observe { [weak self] update in self?.syncUpdated(update) })
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
    /// loading. Cache first: a list that shows nothing yet shows the first page the device holds at once (with the
    /// names the directory holds), whatever the backend does, and the backend's page replaces it in one state.
    public func load() {
        guard !store.state.isLoading else { return }
        if !hasLoadedFirstPage, let cached = cachedFirstPage() {
            let others = Set(cached.conversations.flatMap(\.participantIDs)).subtracting([currentUser])
            let held = others.compactMap { directory.cachedUser($0) }
            let names = Dictionary(held.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            pageLoaded(cached, users: names, after: nil, loading: true)
        }
        loadPage(after: nil)
    }

    /// Starts loading the next page (the first one if none is loaded); does nothing while loading or at the end.
    public func loadMore() {
        guard !store.state.isLoading else { return }
        guard hasLoadedFirstPage else { return loadPage(after: nil) }
        guard store.state.hasMore else { return }
        loadPage(after: cursor)
    }

    /// A message composed here was written or changed (the outbox's events reach the list by themselves): while its
    /// row has no newer message it is the row's preview, and the row moves to its place by the message's time. It
    /// counts nothing unread: what is unread is the sync's to say.
    public func messageActivity(_ message: Message) {
        // A new message in a deleted conversation brings it back, as the backend does.
        // Back on the list at once, not at the next reload: the row as it was, its preview the new message
        // (placed by its activity below); the sync's row replaces it when it comes.
        if let row = local.revive(by: message, currentUser: currentUser) {
            rows[row.id] = row
            if !conversations.contains(where: { $0.id == row.id }) { place(shownRow(row)) }
        }
        guard local.compose(message) else { return }
        show(message.conversationID)
        render()
    }

    /// The chat of `id` opened (nil: closed): while it stays open its row shows nothing unread (the chat reads what
    /// it shows, and the sync's row follows).
    public func chatOpened(_ id: ConversationID?) {
        let closed = local.openConversation
        local.openConversation = id
        for changed in [closed, id].compactMap({ $0 }) { show(changed) }
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

    /// The first page the device holds, when the repository keeps one and it lists anything.
    private func cachedFirstPage() -> ConversationPage? {
        guard let device = repository as? any CachedConversationPages,
            let page = device.cachedConversations(after: nil, limit: pageSize), !page.conversations.isEmpty
        else { return nil }
        return page
    }

    private func loadPage(after cursor: ConversationCursor?) {
        store.update {
            $0.isLoading = true
            $0.error = nil
        }
        // The reads the backend had taken when the page was asked for: one it takes while the page is on its way may
        // be missing from the page's counts.
        let mark = sync.readsSettled
        tasks.run { [weak self, repository, directory, currentUser, pageSize] in
            do {
                let page = try await repository.conversations(of: currentUser, after: cursor, limit: pageSize)
                // One directory call per page, for every participant but the signed-in user.
                let others = Set(page.conversations.flatMap(\.participantIDs)).subtracting([currentUser])
                self?.pageLoaded(page, users: await directory.users(others.sorted()), after: cursor, mark: mark)
            } catch {
                self?.loadFailed(error)
            }
        }
    }

    private func pageLoaded(
        _ page: ConversationPage, users: [UserID: User], after cursor: ConversationCursor?, loading: Bool = false,
        mark: Int? = nil
    ) {
        for (id, user) in users { names[id] = user.displayName }
        if cursor == nil {
            conversations = []
            rows = [:]
        }
        if cursor == nil { showsCachedPage = page.isCached }
        merge(sync.reconcile(page, requestedAt: mark ?? sync.readsSettled).conversations)
        if let last = page.conversations.last {
            self.cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
        }
        hasLoadedFirstPage = true
        render {
            $0.hasMore = page.hasMore
            $0.isLoading = loading
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
            // Refused or silent alike: the one rule of `DeliveryError.isBackendUnreachable`, as the chat reads it.
            if error.isBackendUnreachable { return strings.conversationsUnreachable }
            switch error {
            case .offline: return strings.conversationsOffline
            case .unauthorized: return strings.deliveryError(error)
            default: break
            }
        }
        return strings.conversationsFailed
    }
}
