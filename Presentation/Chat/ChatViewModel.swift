import CourierDomain
import Foundation

/// One open conversation: its messages (backend pages merged with this conversation's pending outbox messages),
/// sending, Retry and Delete of failed messages, and the shared connectivity banner and toast.
///
/// The list follows the outbox's events: a message changes status in place (a `sent` one stays, now "Sent"), a
/// deleted one disappears. `error` holds the text of the latest failure and clears when a send succeeds.
///
/// The rows are a window: the newest page of the merged timeline when the chat opens, a page more per
/// `loadOlderMessages()`, and every message sent or arriving at the bottom. The conversation's pending messages are
/// read from the outbox a page at a time, so opening a chat costs its page, not its queue. An event about a
/// message above the window changes nothing the screen shows and emits no state.
@MainActor
public final class ChatViewModel: StateEmitting {
    // MARK: - Dependencies

    private let conversationID: ConversationID
    private let currentUser: UserID
    private let outbox: any MessageOutbox
    private let repository: any MessageRepository
    private let banner: ConnectivityBannerViewModel
    private let clock: any Clock
    private let formatter: RelativeTimeFormatter
    private let logger: Logger
    private let pageSize: Int
    private let tasks: TaskTracker
    private let refreshTimer: ClockTimer
    private let store: StateStore<State>
    private var tokens: [ObservationToken] = []

    // MARK: - Internal state

    /// Every message known: loaded pages, the pending messages read so far, events. The rows show its tail.
    private var timeline = MessageTimeline()
    /// Where the window starts in `timeline`: the messages before it are known but not shown.
    private var windowStart = 0
    /// The oldest pending message read from the outbox, while older ones remain unread there: nothing older than
    /// it may show, since an unread pending message could belong between.
    private var pendingFrontier: MessageCursor?
    /// Whether the server has older messages than those loaded.
    private var serverHasMore = false
    /// How many rows the pending older page should leave showing.
    private var rowsGoal = 0
    private var olderCursor: MessageCursor?
    private var started = false
    private var refreshDeadline: Date?
    /// The newest page could not load offline; it loads once the device is back online.
    private var loadWaitsForConnection = false
    /// The clock reading of the last full render: while it holds, an event redraws only its own row.
    private var renderedAt: Date?
    /// What the last full render drew: the timeline's revision, the window's start and the next time a row's time
    /// text changes. While all three and the clock hold, the rows shown are still the window's.
    private var rendered: (revision: Int, windowStart: Int, nextChange: Date?)?

    // MARK: - Init

    /// Creates the chat for `conversationID`; call `start()` to load it. `pageSize` messages load per page.
    public init(
        conversationID: ConversationID, currentUser: UserID, title: String, outbox: any MessageOutbox,
        repository: any MessageRepository, connectivity: any ConnectivityMonitor, banner: ConnectivityBannerViewModel,
        clock: any Clock, formatter: RelativeTimeFormatter = RelativeTimeFormatter(), logger: Logger = .silent,
        pageSize: Int = 50
    ) {
        self.conversationID = conversationID
        self.currentUser = currentUser
        self.outbox = outbox
        self.repository = repository
        self.banner = banner
        self.clock = clock
        self.formatter = formatter
        self.logger = logger
        self.pageSize = max(1, pageSize)
        refreshTimer = ClockTimer(clock: clock)
        tasks = TaskTracker(clock: clock)
        let shared = banner.state
        store = StateStore(
            State(
                conversationID: conversationID, title: title, isOnline: connectivity.isOnline, banner: shared.banner,
                toast: shared.toast, connected: shared.connected))
        tokens.append(outbox.observe { [weak self] event in self?.outboxChanged(event) })
        tokens.append(connectivity.observe { [weak self] online in self?.connectivityChanged(online) })
        tokens.append(
            banner.observe { [weak self] shared in self?.bannerChanged(shared) })
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
        started = true
        // The newest page of the queue only: a chat may hold thousands of queued messages.
        readPending(before: nil)
        rowsGoal = pageSize
        windowStart = max(lowestShowable, timeline.messages.count - rowsGoal)
        render { $0.isLoading = true }
        loadPage(before: nil)
    }

    /// Shows a page (`pageSize`) more of older messages: first those already known (pending ones from the outbox,
    /// loaded ones), then, when they fall short, the server's page before the oldest loaded message. Does nothing
    /// while a load runs or at the start.
    public func loadOlderMessages() {
        let current = store.state
        guard started, !current.isLoading, !current.isLoadingOlder else { return }
        rowsGoal = current.messages.count + pageSize
        while pendingFrontier != nil, windowStart - lowestShowable < pageSize {
            readPending(before: pendingFrontier)
        }
        let revealed = min(pageSize, windowStart - lowestShowable)
        windowStart -= revealed
        guard revealed < pageSize, serverHasMore, let cursor = olderCursor else {
            if revealed > 0 { render() }
            return
        }
        render { $0.isLoadingOlder = true }
        loadPage(before: cursor)
    }

    /// Composes and sends `text`: it shows at once, `sending` online or `queued` offline. Throws
    /// `InputError.emptyText` for blank text, and the outbox's error (too long, store full); nothing changes then.
    @discardableResult
    public func send(text: String) throws -> MessageID {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw InputError.emptyText }
        let message = try outbox.compose(text: text, in: conversationID)
        // The outbox has usually announced it already (and maybe moved it on); its event is the newer word.
        if timeline.message(message.id) == nil { upsert(message, previous: nil) }
        return message.id
    }

    /// A tap on a message: a failed one shows the alert with Retry, Delete and Cancel, a queued one the action sheet
    /// with Cancel, Info and Dismiss. Throws `unknownMessage` or `wrongStatus` (neither); nothing changes then.
    public func tapMessage(messageID: MessageID) throws {
        guard let message = knownMessage(messageID) else { throw PresentationError.unknownMessage(messageID) }
        switch message.status {
        case .failed: store.update { $0.alert = MessageAlert(messageID: messageID) }
        case .queued: store.update { $0.alert = MessageAlert(messageID: messageID, kind: .queuedActions) }
        default: throw PresentationError.wrongStatus(messageID, message.status)
        }
    }

    /// Closes the alert or action sheet without acting (Cancel on the failed-message alert, Dismiss, OK).
    public func dismissAlert() {
        store.update { $0.alert = nil }
    }

    /// Presses the open alert's button labelled `label` (case-insensitive). Failed alert: Retry, Delete, Cancel
    /// (closes). Queued action sheet: Cancel (deletes the message from queue and chat for good), Info (the alert
    /// saying it sends once back online), Dismiss (closes). Info alert: OK (closes). Throws `noAlertShowing`,
    /// `unknownAction`, or what the action throws; nothing changes then.
    public func chooseAlertAction(_ label: String) throws {
        guard let alert = store.state.alert else { throw PresentationError.noAlertShowing }
        guard let action = alert.actions.first(where: { $0.lowercased() == label.lowercased() }) else {
            throw PresentationError.unknownAction(label, available: alert.actions)
        }
        switch (alert.kind, action) {
        case (.failed, "Retry"): try retry(messageID: alert.messageID)
        case (.failed, "Delete"): try delete(messageID: alert.messageID)
        case (.queuedActions, "Cancel"): try cancelQueued(alert.messageID)
        case (.queuedActions, "Info"):
            store.update { $0.alert = MessageAlert(messageID: alert.messageID, kind: .queuedInfo) }
        default: dismissAlert()
        }
    }

    /// Send All: sends every queued and failed message of every conversation, in compose order.
    public func sendAll() {
        let outbox = outbox
        tasks.run { await outbox.sendAll() }
    }

    /// Retries a failed message of this chat: one attempt (the outbox's manual send). Offline, nothing is tried: the
    /// message stays failed and `error` says "No internet connection. Message will be saved and you can retry
    /// later." Throws `unknownMessage` or `wrongStatus` (not failed).
    public func retry(messageID: MessageID) throws {
        try requireFailed(messageID)
        guard store.state.isOnline else {
            render { $0.error = DeliveryError.offline.userMessage }
            return
        }
        tasks.send(messageID, through: outbox, logger: logger, as: "retry")
    }

    /// Deletes a failed message of this chat. Throws `unknownMessage`, `wrongStatus` (not failed) or the outbox's
    /// error; nothing changes then.
    public func delete(messageID: MessageID) throws {
        try requireFailed(messageID)
        try outbox.delete(messageID)
        removeFromTimeline(messageID)
        render()
    }

    private func cancelQueued(_ id: MessageID) throws {
        guard let message = knownMessage(id) else { throw PresentationError.unknownMessage(id) }
        guard message.status == .queued else { throw PresentationError.wrongStatus(id, message.status) }
        try outbox.delete(id)
        removeFromTimeline(id)
        render { $0.alert = nil }
    }

    /// The toast's Yes (see `ConnectivityBannerViewModel.acceptToast`).
    public func acceptToast() throws { try banner.acceptToast() }

    /// The toast's Review First (see `ConnectivityBannerViewModel.reviewToast`).
    public func reviewToast() throws { try banner.reviewToast() }

    /// Dismisses the toast (see `ConnectivityBannerViewModel.dismissToast`).
    public func dismissToast() throws { try banner.dismissToast() }

    // MARK: - Loading

    private func loadPage(before cursor: MessageCursor?) {
        let repository = repository
        let conversationID = conversationID
        let limit = pageSize
        tasks.run { [weak self] in
            do {
                let page = try await repository.messages(in: conversationID, before: cursor, limit: limit)
                self?.pageLoaded(page)
            } catch {
                self?.loadFailed(error)
            }
        }
    }

    private func pageLoaded(_ page: MessagePage) {
        timeline.merge(page: page.messages)
        if let first = page.messages.first { olderCursor = first.cursor }
        serverHasMore = page.hasMore && olderCursor != nil
        // The page may land in the window or above it: the window keeps its goal, counted from the bottom.
        windowStart = max(lowestShowable, timeline.messages.count - max(rowsGoal, store.state.messages.count))
        render {
            $0.isLoading = false
            $0.isLoadingOlder = false
        }
    }

    private func loadFailed(_ error: any Error) {
        let cancelled = error is CancellationError
        logger.log(.warning, "loading \(conversationID) failed: \(error)")
        // Offline with nothing cached: not a send failure — say the chat loads once back online, and load it then.
        let offline = (error as? DeliveryError) == .offline && olderCursor == nil
        if offline { loadWaitsForConnection = true }
        render {
            if offline {
                $0.error = Self.offlineLoadText
            } else if !cancelled {
                $0.error = Self.userMessage(for: error)
            }
            $0.isLoading = false
            $0.isLoadingOlder = false
        }
    }

    /// The shared banner hears of connectivity first (it exists before any chat): taking the change from there, with
    /// the load it lets start, keeps one change one state — online, banner, toast and loading agree.
    private func bannerChanged(_ shared: ConnectivityBannerViewModel.State) {
        let apply: (inout State) -> Void = {
            $0.isOnline = shared.isOnline
            $0.banner = shared.banner
            $0.toast = shared.toast
            $0.connected = shared.connected
        }
        guard shared.isOnline, !store.state.isOnline, loadWaitsForConnection, !store.state.isLoading else {
            store.update(apply)
            return
        }
        loadWaitsForConnection = false
        render {
            apply(&$0)
            if $0.error == Self.offlineLoadText { $0.error = nil }
            $0.isLoading = true
        }
        loadPage(before: nil)
    }

    /// A connectivity monitor the banner does not share still moves the chat; with the shared one, the banner has
    /// delivered the change already and this changes nothing.
    private func connectivityChanged(_ online: Bool) {
        store.update { $0.isOnline = online }
        guard online, loadWaitsForConnection, !store.state.isLoading else { return }
        loadWaitsForConnection = false
        render {
            if $0.error == Self.offlineLoadText { $0.error = nil }
            $0.isLoading = true
        }
        loadPage(before: nil)
    }

    /// What an uncached chat opened offline says instead of its messages.
    public static let offlineLoadText = "You're offline. This conversation will load when you're back online."

    // MARK: - Outbox events

    private func outboxChanged(_ event: OutboxEvent) {
        switch event {
        case .changed(let message):
            guard message.conversationID == conversationID else { return }
            let before = timeline.message(message.id)
            // A pending message not read yet from the outbox is read with its page, as it then is.
            if before == nil, let frontier = pendingFrontier, message.cursor < frontier { return }
            var error: String??
            if message.status == .failed {
                error = .some((message.lastError ?? .unknown("send failed")).userMessage)
            } else if !message.status.isPending, before?.status.isPending ?? true {
                error = .some(nil)
            }
            upsert(message, previous: before, error: error)
        case .deleted(let id):
            let before = timeline.message(id)
            let start = windowStart
            guard let index = removeFromTimeline(id) else { return }
            if index >= start {
                renderRemoval(at: index - start, previous: before)
            } else if store.state.alert?.messageID == id {
                store.update { $0.alert = nil }
            }
        case .pausedForSignIn(let paused):
            let text = DeliveryError.unauthorized.userMessage
            render {
                if paused {
                    $0.error = text
                } else if $0.error == text {
                    $0.error = nil
                }
            }
        }
    }

    // MARK: - Window

    /// The first timeline position that may show: nothing older than the pending frontier.
    private var lowestShowable: Int {
        guard let frontier = pendingFrontier else { return 0 }
        return timeline.firstIndex(notBefore: frontier)
    }

    /// Reads the page of pending messages before `cursor` from the outbox into the timeline (above the window).
    private func readPending(before cursor: MessageCursor?) {
        let page = outbox.pending(in: conversationID, before: cursor, limit: pageSize + 1)
        let more = page.count > pageSize
        let messages = more ? Array(page.dropFirst()) : page
        let count = timeline.messages.count
        timeline.merge(page: messages)
        if cursor != nil { windowStart += timeline.messages.count - count }
        pendingFrontier = more ? messages.first?.cursor : nil
    }

    /// Puts `message` into the timeline and draws it when it falls in the window (a new message at or below the
    /// window's top joins it); one above the window only moves the window's start.
    private func upsert(_ message: Message, previous: Message?, error: String?? = nil) {
        let (index, inserted) = timeline.upsert(message)
        let newest = index == timeline.messages.count - 1
        if index < windowStart || (inserted && index == windowStart && windowStart > 0 && !newest) {
            if inserted { windowStart += 1 }
            return
        }
        renderRow(at: index - windowStart, inserted: inserted, previous: previous, error: error)
    }

    /// Removes a message from the timeline; returns where it was (the window's start moves up when it was above).
    @discardableResult
    private func removeFromTimeline(_ id: MessageID) -> Int? {
        guard let index = timeline.remove(id) else { return nil }
        if index < windowStart { windowStart -= 1 }
        return index
    }

    /// The message with this id: from the timeline, else a pending message of this chat not read yet (a REF may
    /// name a failed or queued message above the window), which then joins the timeline above the window.
    private func knownMessage(_ id: MessageID) -> Message? {
        if let message = timeline.message(id) { return message }
        guard let message = outbox.pending.first(where: { $0.id == id }), message.conversationID == conversationID
        else { return nil }
        let (index, inserted) = timeline.upsert(message)
        if inserted, index <= windowStart { windowStart += 1 }
        return message
    }

    private var window: ArraySlice<Message> { timeline.messages[windowStart...] }

    // MARK: - Rendering

    private func requireFailed(_ id: MessageID) throws {
        guard let message = knownMessage(id) else { throw PresentationError.unknownMessage(id) }
        guard message.status == .failed else { throw PresentationError.wrongStatus(id, message.status) }
    }

    /// Rebuilds the rows (relative times read now) and applies `change`, then sleeps until a time text changes.
    private func render(_ change: (inout State) -> Void = { _ in }) {
        let now = clock.now
        var rows: [MessageRow] = []
        var failed: [MessageID] = []
        var nextChange: Date?
        if now == renderedAt, let rendered, rendered.revision == timeline.revision,
            rendered.windowStart == windowStart
        {
            // Nothing shown changed since the last render (a load that failed, a flag): keep the rows, which also
            // makes comparing the new state with the old one cost nothing per row.
            rows = store.state.messages
            failed = store.state.failedMessageIDs
            nextChange = rendered.nextChange
        } else {
            rows.reserveCapacity(window.count)
            for message in window {
                rows.append(makeRow(message, now: now))
                if message.status == .failed { failed.append(message.id) }
                let change = formatter.nextChange(for: message.timestamp, after: now)
                if nextChange.map({ change < $0 }) ?? true { nextChange = change }
            }
        }
        store.update {
            $0.messages = rows
            $0.failedMessageIDs = failed
            $0.hasMore = serverHasMore || windowStart > 0 || pendingFrontier != nil
            // The alert goes once its message left the status it is about (retried, deleted, sent from the queue).
            if let alert = $0.alert, timeline.message(alert.messageID)?.status != alert.requiredStatus {
                $0.alert = nil
            }
            change(&$0)
        }
        renderedAt = now
        rendered = (timeline.revision, windowStart, nextChange)
        scheduleRefresh(at: nextChange)
    }

    /// Redraws the one row at `index` of the window (new when `inserted`; `previous` is the message it replaces) and
    /// sets `error`
    /// when given: the cost of one event, not of the conversation. A full render when the clock has moved since
    /// the last one, since every row's relative time may then read differently.
    private func renderRow(at index: Int, inserted: Bool, previous: Message?, error: String?? = nil) {
        let now = clock.now
        guard now == renderedAt else {
            render { state in if let error { state.error = error } }
            return
        }
        let message = timeline.messages[windowStart + index]
        let row = makeRow(message, now: now)
        let failed = message.status == .failed || previous?.status == .failed ? failedIDs() : nil
        store.edit { state in
            var changed = false
            if inserted {
                state.messages.insert(row, at: index)
                changed = true
            } else if state.messages[index] != row {
                state.messages[index] = row
                changed = true
            }
            if let error, state.error != error {
                state.error = error
                changed = true
            }
            // The alert or sheet goes once its message left the status it is about (sent from the queue, retried).
            if let alert = state.alert, alert.messageID == message.id, message.status != alert.requiredStatus {
                state.alert = nil
                changed = true
            }
            return Self.apply(failed: failed, to: &state) || changed
        }
        let change = formatter.nextChange(for: message.timestamp, after: now)
        if refreshDeadline.map({ change < $0 }) ?? true { scheduleRefresh(at: change) }
    }

    /// Removes the row at `index` of the window (`previous` is its message), like `renderRow`.
    private func renderRemoval(at index: Int, previous: Message?) {
        guard clock.now == renderedAt else {
            render()
            return
        }
        let failed = previous?.status == .failed ? failedIDs() : nil
        store.edit { state in
            state.messages.remove(at: index)
            if let alert = state.alert, alert.messageID == previous?.id { state.alert = nil }
            _ = Self.apply(failed: failed, to: &state)
            return true
        }
    }

    private func failedIDs() -> [MessageID] {
        window.lazy.filter { $0.status == .failed }.map(\.id)
    }

    /// Sets the failed ids when given and different; the alert goes once its message is no longer failed.
    private static func apply(failed: [MessageID]?, to state: inout State) -> Bool {
        guard let failed, failed != state.failedMessageIDs else { return false }
        state.failedMessageIDs = failed
        if let alert = state.alert, !failed.contains(alert.messageID) { state.alert = nil }
        return true
    }

    private func makeRow(_ message: Message, now: Date) -> MessageRow {
        let outgoing = message.senderID == currentUser
        return MessageRow(
            id: message.id, text: message.text, status: message.status, senderID: message.senderID,
            statusLabel: outgoing ? MessageRow.statusLabel(for: message.status) : "", isOutgoing: outgoing,
            timeText: formatter.string(for: message.timestamp, relativeTo: now),
            canRetry: outgoing && message.status == .failed)
    }

    private func scheduleRefresh(at deadline: Date?) {
        guard deadline != refreshDeadline || !refreshTimer.isScheduled else { return }
        refreshDeadline = deadline
        refreshTimer.schedule(at: deadline, coalescing: true) { [weak self] in self?.render() }
    }

    private static func userMessage(for error: any Error) -> String {
        (error as? DeliveryError ?? .unknown("\(error)")).userMessage
    }
}
