import CourierDomain
import Foundation

/// The Offline Queue screen: every pending message (queued, sending, failed) of every conversation, in compose
/// order, with Send Now, Edit (a sheet) and Delete (a confirmation) per message and Send All.
///
/// The title keeps its count when empty ("Offline Queue (0)") so it never jumps; the empty state says so. Each
/// outbox event touches one row (a binary search by compose position), so 10,000 queued messages cost O(n) to
/// build and O(log n) to locate per change; times refresh every 60 s on the clock.
@MainActor
public final class OfflineQueueViewModel: StateEmitting {
    // MARK: - Dependencies

    // Internal rather than private where OfflineQueueViewModel+Editing.swift reads them (docs/design.md §5).

    let outbox: any MessageOutbox
    private let clock: any Clock
    private let conversationName: @MainActor (ConversationID) -> String
    private let formatter: RelativeTimeFormatter
    let strings: CourierStrings
    private let logger: Logger
    private let tasks: TaskTracker
    private let refreshTimer: ClockTimer
    let store: StateStore<State>
    private var token: ObservationToken?
    /// Compose positions by id, so a `.deleted` event (which carries only the id) finds its row in O(log n).
    private var positions: [MessageID: MessageCursor] = [:]
    private var names: [ConversationID: String] = [:]
    /// In the background the times are not refreshed; the return redraws them once.
    private var isInForeground = true
    /// The message whose edit sheet is being saved: its outbox event closes the sheet in the same state.
    var savingEdit: MessageID?

    // MARK: - Init

    /// Creates the screen over `outbox`; `conversationName` names a conversation for the rows. Its texts are
    /// `strings`'.
    public init(
        outbox: any MessageOutbox, clock: any Clock,
        conversationName: @escaping @MainActor (ConversationID) -> String,
        formatter: RelativeTimeFormatter = RelativeTimeFormatter(), logger: Logger = .silent,
        strings: CourierStrings = .english
    ) {
        tasks = TaskTracker(clock: clock)
        refreshTimer = ClockTimer(clock: clock)
        store = StateStore(Self.makeState(rows: [], strings: strings))
        self.outbox = outbox
        self.clock = clock
        self.conversationName = conversationName
        self.formatter = formatter.using(strings)
        self.strings = strings
        self.logger = logger
        let now = clock.now
        var rows: [OfflineQueueRow] = []
        rows.reserveCapacity(outbox.pending.count)
        for message in outbox.pending where message.status.isPending {
            rows.append(makeRow(message, now: now))
            positions[message.id] = message.cursor
        }
        store.update { $0 = Self.makeState(rows: rows, strings: strings) }
        token = outbox.observe { [weak self] event in self?.outboxChanged(event) }
        scheduleRefresh()
    }

    /// The current state.
    public var state: State { store.state }

    /// Replays the current state to `observer`, then calls it on every change.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        store.observe(observer)
    }

    /// Whether work started by an input (Send Now, Send All) still runs. The time refresh does not count.
    public var hasPendingWork: Bool { !tasks.isIdle }

    // MARK: - Inputs

    /// Send Now: sends one queued or failed message. Throws `InputError.unknownMessage` or `wrongStatus` (already
    /// sending).
    public func sendNow(messageID: MessageID) throws {
        try requireWaiting(messageID)
        tasks.send(messageID, through: outbox, logger: logger, as: "send")
    }

    /// Edit: replaces the text of a queued or failed message. Throws `InputError.unknownMessage`, `wrongStatus`,
    /// `InputError.emptyText` or the outbox's error; nothing changes then.
    public func edit(messageID: MessageID, text: String) throws {
        try requireWaiting(messageID)
        // The outbox owns the text rule (docs/design.md §3): it refuses blank text with nothing changed. The row
        // takes the new text from the outbox's `changed` event alone: one path per change.
        try outbox.edit(messageID, text: text)
    }

    /// Delete without asking: removes a queued or failed message (`confirmDelete(messageID:)` asks first). Throws
    /// `InputError.unknownMessage`, `wrongStatus` or the outbox's error.
    public func delete(messageID: MessageID) throws {
        try requireWaiting(messageID)
        // The outbox's `deleted` event takes the row away: one path per change.
        try outbox.delete(messageID)
    }

    /// Send All: sends every queued and failed message, per conversation in compose order. When it has sent them
    /// all (nothing left on the screen), the screen closes, as its Close would.
    public func sendAll() {
        guard !store.state.rows.isEmpty else { return }
        let outbox = outbox
        tasks.run { [weak self] in
            await outbox.sendAll()
            guard let self, self.store.state.rows.isEmpty else { return }
            self.close()
        }
    }

    /// Shows the screen (the banner's Review, the toast's Review First, a tap on a queue button).
    public func present() {
        store.update { $0.isPresented = true }
    }

    /// Close: hides the screen, with its edit sheet or delete confirmation; nothing queued changes (an edit not
    /// saved is dropped, as Cancel drops it).
    public func close() {
        store.update {
            $0.isPresented = false
            $0.editSheet = nil
            $0.deleteConfirmation = nil
        }
    }

    // MARK: - Events

    private func outboxChanged(_ event: OutboxEvent) {
        switch event {
        case .changed(let message): apply(message)
        case .deleted(let id): remove(id)
        case .pausedForSignIn: return
        }
    }

    private func apply(_ message: Message) {
        guard message.status.isPending else {
            remove(message.id)
            return
        }
        let row = makeRow(message, now: clock.now)
        let cursor = positions[message.id] ?? message.cursor
        positions[message.id] = cursor
        // A sheet or confirmation closes with the change that ends it (its save, a send that took the message).
        let closes = savingEdit == message.id || message.status == .sending
        store.edit { state in
            var closed = false
            if closes { closed = Self.close(message.id, in: &state) }
            let index = Self.index(of: cursor, in: state.rows)
            if index < state.rows.count, state.rows[index].id == message.id {
                guard state.rows[index] != row else { return closed }
                state.rows[index] = row
                return true
            }
            state.rows.insert(row, at: index)
            Self.refreshHeader(&state, strings: strings)
            return true
        }
        scheduleRefresh()
    }

    private func remove(_ id: MessageID) {
        guard let cursor = positions.removeValue(forKey: id) else { return }
        store.edit { state in
            let index = Self.index(of: cursor, in: state.rows)
            guard index < state.rows.count, state.rows[index].id == id else { return false }
            state.rows.remove(at: index)
            _ = Self.close(id, in: &state)
            Self.refreshHeader(&state, strings: strings)
            return true
        }
        if store.state.rows.isEmpty { refreshTimer.cancel() }
    }

    // MARK: - Rendering

    func requireWaiting(_ id: MessageID) throws {
        let rows = store.state.rows
        guard let cursor = positions[id], case let index = Self.index(of: cursor, in: rows), index < rows.count,
            rows[index].id == id
        else { throw InputError.unknownMessage(id) }
        let row = rows[index]
        guard row.status == .queued || row.status == .failed else {
            throw PresentationError.wrongStatus(id, row.status)
        }
    }

    private func makeRow(_ message: Message, now: Date) -> OfflineQueueRow {
        let name: String
        if let known = names[message.conversationID] {
            name = known
        } else {
            name = conversationName(message.conversationID)
            names[message.conversationID] = name
        }
        return OfflineQueueRow(message, conversationName: name, now: now, formatter: formatter, strings: strings)
    }

    // MARK: - Lifecycle

    /// The app went to the background: the times stop refreshing (the rows still follow the outbox).
    public func enterBackground() {
        guard isInForeground else { return }
        isInForeground = false
        refreshTimer.cancel()
    }

    /// The app is back: the times are read again now, once, and refresh every 60 s from here.
    public func enterForeground() {
        guard !isInForeground else { return }
        isInForeground = true
        refreshTimes()
    }

    /// Every 60 s of clock time, while something is listed and the app is in the foreground, the relative times
    /// are read again.
    private func scheduleRefresh() {
        guard isInForeground, !refreshTimer.isScheduled, !store.state.rows.isEmpty else { return }
        refreshTimer.schedule(after: .seconds(60), coalescing: true) { [weak self] in self?.refreshTimes() }
    }

    private func refreshTimes() {
        let now = clock.now
        store.edit { state in
            var changed = false
            for index in state.rows.indices {
                let text = formatter.string(for: state.rows[index].composedAt, relativeTo: now)
                if state.rows[index].timeText != text {
                    state.rows[index].timeText = text
                    changed = true
                }
            }
            return changed
        }
        scheduleRefresh()
    }

    /// The first row not before `cursor` in compose order.
    private static func index(of cursor: MessageCursor, in rows: [OfflineQueueRow]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if MessageCursor(timestamp: rows[middle].composedAt, id: rows[middle].id) < cursor {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private static func refreshHeader(_ state: inout State, strings: CourierStrings) {
        state.title = strings.queueTitle(state.rows.count)
        state.emptyState = state.rows.isEmpty ? EmptyState(strings: strings) : nil
    }

    private static func makeState(rows: [OfflineQueueRow], strings: CourierStrings) -> State {
        var state = State(
            title: "", rows: rows, emptyState: nil, rowActions: RowActions(strings: strings),
            sendAllLabel: strings.sendAll)
        state.closeLabel = strings.close
        refreshHeader(&state, strings: strings)
        return state
    }
}
