import CourierDomain
import CourierOneShot
import CourierPresentation

/// Prints what a person would see change on screen, as it changes: the banner, the toast and the open chat's alert
/// or action sheet. One line per change — `banner: TEXT`, `toast: TEXT`, `alert: TITLE — MESSAGE [A | B]` — and
/// `banner: —` (and so on) when one goes away.
///
/// Between commands (`betweenCommands`, an interactive session on the system clock) a status change of the open
/// chat's own messages prints its row too — a message delivered after 3G latency — since no command result will.
///
/// Rows that arrive in the open chat from someone else (or from the user's other device) print as they arrive, and
/// rows of the user's whose status a receipt raises print with their new label — during a command and between
/// commands alike.
///
/// It remembers what it last printed across the view models it follows, so rebuilding them (a restart, another
/// chat opened) prints only what actually looks different.
@MainActor
final class ScreenWatcher {
    private let write: (String) -> Void
    private var shown: [String: String] = [:]
    private var bannerToken: ObservationToken?
    private var chatToken: ObservationToken?
    private var listToken: ObservationToken?
    private weak var list: ConversationsListViewModel?
    private weak var banner: ConnectivityBannerViewModel?
    private weak var chat: ChatViewModel?
    private var followsChat = false
    private var statusLabels: [MessageID: String] = [:]
    /// Heard before the screens (registered before any chat): the statuses a receipt is about to change.
    private var beforeScreens: ObservationToken?
    /// Heard after the open chat (registered again after each chat is made): what the update changed on screen.
    private var afterScreens: ObservationToken?
    private var statusesBefore: [MessageID: MessageStatus] = [:]
    /// Heard before the screens: the labels of this device's rows an arrival is about to touch, shown already.
    private var ownShownBefore: [MessageID: String] = [:]

    /// Whether no command runs: then the chat's own rows print as their status changes. The labels they are
    /// compared with are taken when a command ends, not at every state during it (a pass over every row per state
    /// would make a command cost the chat's length).
    var betweenCommands = false {
        didSet {
            guard betweenCommands, !oldValue else { return }
            statusLabels = [:]
            if let state = chat?.state { trackLabels(of: state) }
        }
    }

    /// Creates a watcher that prints through `write`.
    init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Follows `app`'s banner and open chat (again, when they were replaced since the last call).
    func follow(_ app: AppContainer) {
        if banner !== app.messaging.banner || beforeScreens == nil {
            beforeScreens = app.client.sync.observe { [weak self] update in self?.aboutToChange(update) }
        }
        if banner !== app.messaging.banner {
            banner = app.messaging.banner
            bannerToken = app.messaging.banner.observe { [weak self] state in self?.bannerChanged(state) }
        }
        if list !== app.conversations.list {
            list = app.conversations.list
            listToken = app.conversations.list.observe { [weak self] state in self?.listChanged(state) }
        }
        if chat !== app.chat || (app.chat == nil && followsChat) {
            chat = app.chat
            followsChat = app.chat != nil
            statusLabels = [:]
            chatToken = app.chat?.observe { [weak self] state in self?.chatChanged(state) }
            afterScreens = app.chat.map { _ in app.client.sync.observe { [weak self] update in self?.changed(update) } }
            if app.chat == nil { show("alert", Self.text(for: list?.state.alert)) }
        }
    }

    private func aboutToChange(_ update: SyncUpdate) {
        guard let state = chat?.state else { return }
        switch update {
        case .statuses(let conversation, _, _, _) where state.conversationID == conversation:
            statusesBefore = [:]
            for row in state.messages where row.isOutgoing && !row.status.isPending {
                statusesBefore[row.id] = row.status
            }
        case .messages(let messages):
            // This device's rows the arrival touches that the chat shows already — a Matrix echo moving the message
            // this device sent to where the homeserver filed it — among the newest rows, where such an echo lands.
            ownShownBefore = [:]
            let arriving = Set(messages.lazy.filter { $0.conversationID == state.conversationID }.map(\.id))
            guard !arriving.isEmpty else { return }
            for row in state.messages.suffix(200) where row.isOutgoing && arriving.contains(row.id) {
                ownShownBefore[row.id] = row.statusLabel
            }
        default:
            return
        }
    }

    private func changed(_ update: SyncUpdate) {
        guard let state = chat?.state else { return }
        switch update {
        case .messages(let messages):
            let arrived = Set(messages.lazy.filter { $0.conversationID == state.conversationID }.map(\.id))
            guard !arrived.isEmpty else { return }
            // The arrivals are among the newest rows: look from the end, no further than there are arrivals.
            var rows: [MessageRow] = []
            for row in state.messages.reversed() {
                if arrived.contains(row.id) { rows.append(row) }
                if rows.count == arrived.count { break }
            }
            // A row shown already, as it is, neither appears nor changes: it is not printed again.
            for row in rows.reversed() where ownShownBefore[row.id] != row.statusLabel { write(Driver.line(for: row)) }
            ownShownBefore = [:]
        case .statuses(let conversation, _, _, _) where conversation == state.conversationID:
            for row in state.messages where row.isOutgoing {
                guard let before = statusesBefore[row.id], before != row.status else { continue }
                // Between commands the label tracker follows this device's rows and printed this change already.
                if betweenCommands, statusLabels[row.id] == row.statusLabel { continue }
                write(Driver.line(for: row))
            }
            statusesBefore = [:]
        default:
            return
        }
    }

    /// Stops following (the driver is closing).
    func stop() {
        bannerToken = nil
        chatToken = nil
        listToken = nil
        beforeScreens = nil
        afterScreens = nil
    }

    /// The alert's line text: "TITLE — MESSAGE [A | B]".
    static func text(for alert: ChatViewModel.MessageAlert?) -> String? {
        alert.map { "\($0.title) — \($0.message) [\($0.actions.joined(separator: " | "))]" }
    }

    /// The list's confirmation's line text, as an alert's.
    static func text(for alert: ConversationsListViewModel.DeleteAlert?) -> String? {
        alert.map { "\($0.title) — \($0.message) [\($0.actions.joined(separator: " | "))]" }
    }

    /// One alert shows at a time: the list's confirmation, else the open chat's alert or sheet.
    private func listChanged(_ state: ConversationsListViewModel.State) {
        show("alert", Self.text(for: state.alert) ?? Self.text(for: chat?.state.alert))
    }

    private func chatChanged(_ state: ChatViewModel.State) {
        show("alert", Self.text(for: list?.state.alert) ?? Self.text(for: state.alert))
        guard betweenCommands else { return }
        trackLabels(of: state)
    }

    /// Remembers the labels of the chat's own pending rows (and of those already remembered), printing the rows
    /// whose label changed between commands.
    private func trackLabels(of state: ChatViewModel.State) {
        var labels: [MessageID: String] = [:]
        for row in state.messages where row.isOutgoing && (row.status.isPending || statusLabels[row.id] != nil) {
            labels[row.id] = row.statusLabel
            if betweenCommands, let before = statusLabels[row.id], before != row.statusLabel {
                write(Driver.line(for: row))
            }
        }
        statusLabels = labels
    }

    private func bannerChanged(_ state: ConnectivityBannerViewModel.State) {
        let banner = state.banner.visible ? state.banner.text : (state.connected ? state.connectedText : nil)
        show("banner", banner)
        show("toast", state.toast.visible ? state.toast.text : nil)
    }

    private func show(_ kind: String, _ text: String?) {
        guard shown[kind] != text else { return }
        shown[kind] = text
        write("\(kind): \(text ?? "—")")
    }
}
