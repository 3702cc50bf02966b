import CourierDomain
import Foundation

/// One open conversation: its messages (backend pages merged with this conversation's pending outbox messages),
/// sending, Retry and Delete of failed messages, and the shared connectivity banner and toast.
///
/// The list follows the outbox's events: a message changes status in place (a `sent` one stays, now "Sent"), a
/// deleted one disappears. `error` holds the text of the latest failure and clears when a send succeeds. The outbox's
/// events and connectivity reach the chat through its banner, each with what it did to the banner: one event, one
/// state — an offline send shows its row and the banner's new count together.
///
/// The rows are a window: the newest page of the merged timeline when the chat opens, a page more per
/// `loadOlderMessages()`, and every message sent or arriving at the bottom. The conversation's pending messages are
/// read from the outbox a page at a time, so opening a chat costs its page, not its queue. An event about a
/// message above the window changes nothing the screen shows and emits no state.
@MainActor
public final class ChatViewModel: StateEmitting {
    // MARK: - Dependencies
    // Internal rather than private where the extensions in ChatViewModel+*.swift read them (docs/design.md §5).

    let conversationID: ConversationID
    let currentUser: UserID
    let pageSize: Int
    /// What the chat works through, and the tracker and timers its work runs on (`ChatViewModel+Parts.swift` reads
    /// each by its name).
    let parts: Parts
    /// Whose status the header shows, and where it is asked (`showPresence(of:from:)`).
    var presenceSource: (user: UserID, directory: any UserDirectory)?
    let store: StateStore<State>
    private var tokens: [ObservationToken] = []
    /// Keeps the chat counted as on screen (`LiveSync.watch`) from `start()` until the view model goes.
    private var watching: ObservationToken?
    /// Whether `start()` was called.
    var started: Bool { watching != nil }

    // MARK: - Internal state

    /// What the chat holds of its conversation and which part is on screen (`ChatWindow`).
    var shown = ChatWindow()
    /// Whether the app is in the foreground: in the background the relative-time refresh stops.
    var isInForeground = true
    /// Why the newest page is asked for again, and when (`NewestPageRetry`).
    var newestPage = NewestPageRetry()
    /// What the last full render drew and when, and when the rows' time texts are refreshed (`DrawnRows`).
    var drawn = DrawnRows()

    // MARK: - Init

    /// Creates the chat for `conversationID`; call `start()` to load it. `pageSize` messages load per page. The
    /// outbox's events and connectivity reach it through `banner`, which must follow the same `outbox`. Messages and
    /// receipts arrive through `sync` (nothing arrives without one). Every text it shows is `strings`'.
    public init(
        conversationID: ConversationID, currentUser: UserID, title: String, outbox: any MessageOutbox,
        repository: any MessageRepository, banner: ConnectivityBannerViewModel, clock: any Clock,
        sync: (any LiveSync)? = nil, formatter: RelativeTimeFormatter = RelativeTimeFormatter(),
        logger: Logger = .silent, pageSize: Int = 50, strings: CourierStrings = .english
    ) {
        self.conversationID = conversationID
        self.currentUser = currentUser
        parts = Parts(
            outbox: outbox, repository: repository, sync: sync ?? SilentSync(), banner: banner, clock: clock,
            formatter: formatter.using(strings), strings: strings, logger: logger, tasks: TaskTracker(clock: clock),
            refreshTimer: ClockTimer(clock: clock), presenceTimer: ClockTimer(clock: clock))
        self.pageSize = max(1, pageSize)
        let shared = banner.state
        var initial = State(
            conversationID: conversationID, title: title, isOnline: shared.isOnline, banner: shared.banner,
            toast: shared.toast, connected: shared.connected, beginningText: strings.beginningOfConversation)
        initial.queuedNoticeText = strings.queuedNotice
        initial.bannerElsewhereText = Self.elsewhereText(
            of: shared.banner, here: outbox.pendingCount(in: conversationID), strings: strings)
        store = StateStore(initial)
        tokens.append(banner.follow { [weak self] shared, event in self?.bannerChanged(shared, after: event) })
        tokens.append(parts.sync.observe { [weak self] update in self?.syncUpdated(update) })
    }

    // MARK: - Output

    /// The current state.
    public var state: State { store.state }

    /// Replays the current state to `observer`, then calls it on every change.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        store.observe(observer)
    }

    /// Whether async work started by an input (a page load, Retry, Send All, the toast's Yes) still runs.
    public var hasPendingWork: Bool { !tasks.isIdle || banner.hasPendingWork }

    // MARK: - Inputs

    /// Shows this conversation's pending messages at once and loads the newest page; later calls do nothing.
    public func start() {
        guard !started else { return }
        watching = sync.watch(conversationID)
        // The newest page of the queue only: a chat may hold thousands of queued messages.
        readPending(before: nil)
        shown.rowsGoal = pageSize
        shown.start = max(lowestShowable, shown.timeline.messages.count - shown.rowsGoal)
        // Cache first: what the device holds shows at once, whatever the backend does; the backend's page merges in
        // when it answers (or, when it cannot, the device's page stands, as the repository falls back to it).
        if let cached = (repository as? any CachedMessagePages)?.cachedMessages(
            in: conversationID, before: nil, limit: pageSize),
            !cached.messages.isEmpty
        {
            shown.timeline.merge(page: cached.messages)
            shown.start = max(lowestShowable, shown.timeline.messages.count - shown.rowsGoal)
        }
        render { $0.isLoading = true }
        loadPage(before: nil)
    }

    /// Shows a page (`pageSize`) more of older messages: first those already known (pending ones from the outbox,
    /// loaded ones), then, when they fall short, the server's page before the oldest loaded message. When the newest
    /// page failed to load, asks for it again. Does nothing while a load runs or at the start.
    public func loadOlderMessages() {
        let current = store.state
        guard started, !current.isLoading, !current.isLoadingOlder else { return }
        if newestPage.failed {
            // The newest page never came: asking for more asks for it again, rather than claim the beginning (the
            // page, when it comes, clears the failure).
            newestPage.retrying()
            render {
                $0.error = nil
                $0.isLoading = true
            }
            loadPage(before: nil)
            return
        }
        shown.rowsGoal = current.messages.count + pageSize
        while shown.pendingFrontier != nil, shown.start - lowestShowable < pageSize {
            readPending(before: shown.pendingFrontier)
        }
        let revealed = min(pageSize, shown.start - lowestShowable)
        shown.start -= revealed
        guard revealed < pageSize, shown.serverHasMore, let cursor = shown.olderCursor else {
            if revealed > 0 { render() }
            return
        }
        render { $0.isLoadingOlder = true }
        loadPage(before: cursor)
    }

    /// Composes and sends `text`: it shows at once, `sending` online or `queued` offline. Returns the new message's
    /// id, so the caller can find its row. Throws the outbox's error — `InputError.emptyText` for blank text,
    /// `textTooLong`, a full store — and nothing changes then.
    @discardableResult
    public func send(text: String) throws -> MessageID {
        // The text goes as typed: the outbox owns the text rule (docs/design.md §3). The message reaches the rows
        // once, through the outbox's `changed` event, which compose announces before it returns (docs/design.md §5).
        try outbox.compose(text: text, in: conversationID).id
    }

    /// Composes and sends an image uploaded elsewhere (`media`: its URL and thumbnail URL) with `caption`, as
    /// `send(text:)` sends text: its row shows the thumbnail at once. Throws the outbox's error —
    /// `InputError.invalidImage` for a blank URL, `textTooLong` — and nothing changes then.
    @discardableResult
    public func send(image media: MediaAttachment, caption: String = "") throws -> MessageID {
        try outbox.compose(text: caption, media: media, in: conversationID).id
    }

    /// Send All: sends every queued and failed message of every conversation, in compose order.
    public func sendAll() {
        let outbox = outbox
        tasks.run { await outbox.sendAll() }
    }

    /// Retries a failed message of this chat: one attempt (the outbox's manual send). Offline, nothing is tried: the
    /// message stays failed and `error` says "No internet connection. Message will be saved and you can retry
    /// later." Throws `InputError.unknownMessage` or `wrongStatus` (not failed).
    public func retry(messageID: MessageID) throws {
        try requireFailed(messageID)
        guard store.state.isOnline else {
            render { $0.error = strings.deliveryError(.offline) }
            return
        }
        tasks.send(messageID, through: outbox, logger: logger, as: "retry")
    }

    /// Deletes a failed message of this chat. Throws `InputError.unknownMessage`, `wrongStatus` (not failed) or the
    /// outbox's error; nothing changes then.
    public func delete(messageID: MessageID) throws {
        try requireFailed(messageID)
        // The outbox's `deleted` event takes the row away (and the alert over it): one path per change.
        try outbox.delete(messageID)
    }

    /// The app went to the background: the rows' relative-time refresh stops (what arrives is caught up on return).
    public func enterBackground() {
        guard isInForeground else { return }
        isInForeground = false
        refreshTimer.cancel()
        presenceTimer.cancel()
        drawn.refreshDeadline = nil
    }

    /// The app is back: the rows' times are redrawn now and refreshed again as they change.
    public func enterForeground() {
        guard !isInForeground else { return }
        isInForeground = true
        render()
        refreshPresence()
    }

    /// The toast's Yes (see `ConnectivityBannerViewModel.acceptToast`).
    public func acceptToast() throws { try banner.acceptToast() }

    /// The toast's Review First (see `ConnectivityBannerViewModel.reviewToast`).
    public func reviewToast() throws { try banner.reviewToast() }

    /// Dismisses the toast (see `ConnectivityBannerViewModel.dismissToast`).
    public func dismissToast() throws { try banner.dismissToast() }

}
