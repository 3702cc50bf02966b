import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation

/// A suite of screen tests over the shared fakes — a manual clock, a manual connectivity and the fake outbox — held
/// in one line (`let screen = OutboxScreen(online: true)`), with the chat and banner builders and the states they
/// should emit.
@MainActor
protocol OutboxScreenSuite {
    /// The fakes the suite's screens run over.
    var screen: OutboxScreen { get }
}

extension OutboxScreenSuite {
    /// The clock the test advances.
    var clock: ManualClock { screen.clock }
    /// The device's connectivity.
    var network: ManualConnectivity { screen.network }
    /// The outbox every screen of the test shares.
    var outbox: FakeMessageOutbox { screen.outbox }

    /// A chat's backend on the suite's clock: pages of `history` after `latency`, no sends expected.
    func backend(
        _ history: [Message] = [], latency: Duration = .seconds(1), reachable: ManualConnectivity? = nil
    ) -> FakeMessageRepository {
        screen.backend(history, latency: latency, reachable: reachable)
    }

    // MARK: - Screens

    /// The shared banner over the suite's fakes.
    func makeBanner(actions: ConnectivityBannerViewModel.Actions = .init()) -> ConnectivityBannerViewModel {
        ConnectivityBannerViewModel(connectivity: network, outbox: outbox, clock: clock, actions: actions)
    }

    /// The chat of `c1` with Ana over `repository` and a new banner; not started.
    func makeChat(repository: any MessageRepository) -> ChatViewModel {
        ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox, repository: repository,
            banner: makeBanner(), clock: clock)
    }

    /// The chat started over `repository` (an empty backend when nil), once its first page arrived.
    func openChat(repository: FakeMessageRepository? = nil) async -> ChatViewModel {
        let model = makeChat(repository: repository ?? backend())
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        return model
    }

    // MARK: - States

    /// The chat's state showing `rows`; its banner follows `online` (the network's reading when nil) and the
    /// `waiting` count, and its failed ids are those of the failed rows.
    func chatState(
        _ rows: [MessageRow], hasMore: Bool = false, isLoading: Bool = false, isLoadingOlder: Bool = false,
        error: String? = nil, online: Bool? = nil, waiting: Int = 0, connected: Bool = false,
        alert: ChatViewModel.MessageAlert? = nil, elsewhere: String? = nil
    ) -> ChatViewModel.State {
        let online = online ?? network.isOnline
        // The failed rows of this chat are the failed messages counted (every test's waiting messages are here).
        let failed = rows.filter { $0.status == .failed }.count
        let queued = waiting - failed
        let offlineText =
            (queued == 0
                ? "You're offline. Messages will send when reconnected."
                : "You're offline. \(queued) \(queued == 1 ? "message" : "messages") queued.")
            + (failed == 0 ? "" : " \(failed) \(failed == 1 ? "message" : "messages") failed.")
        var state = ChatViewModel.State(
            conversationID: "c1", title: "Ana", messages: rows, hasMore: hasMore, isLoading: isLoading,
            isLoadingOlder: isLoadingOlder, error: error, isOnline: online,
            banner: .init(
                visible: !online || waiting > 0,
                text: online ? (waiting > 0 ? self.waiting(waiting) : "") : offlineText,
                queuedCount: waiting, showsSendAll: waiting > 0),
            toast: .hidden, connected: connected,
            failedMessageIDs: rows.filter { $0.status == .failed }.map(\.id), alert: alert)
        state.bannerElsewhereText = elsewhere
        return state
    }

    /// The banner's state: `banner` is the offline text, `toast` the toast's text when one shows.
    /// The banner online while `count` messages wait for the user.
    func waiting(_ count: Int) -> String { "\(count) message\(count == 1 ? "" : "s") waiting to send." }

    func bannerState(
        online: Bool, count: Int, banner: String = "", toast: String? = nil, connected: Bool = false,
        reconnecting: Bool = false
    ) -> ConnectivityBannerViewModel.State {
        ConnectivityBannerViewModel.State(
            isOnline: online,
            banner: .init(
                visible: !online || reconnecting || count > 0,
                text: reconnecting ? "Reconnecting..." : online && count > 0 ? waiting(count) : banner,
                queuedCount: count, showsSendAll: count > 0 && !(online && reconnecting)),
            toast: toast.map { .init(visible: true, text: $0, queuedCount: count) } ?? .hidden,
            connected: connected)
    }
}

// MARK: - Rows

/// The labels the chat shows under the user's own messages, written out here so a slip in the code shows.
private let labels: [MessageStatus: String] = [
    .queued: "Queued", .sending: "Sending...", .sent: "Sent", .delivered: "Delivered", .read: "Read",
    .failed: "Failed - Tap to retry",
]

/// A row of the signed-in user's message.
func mine(_ id: MessageID, _ text: String, _ status: MessageStatus, time: String = "Now") -> MessageRow {
    MessageRow(
        id: id, text: text, status: status, senderID: "me", statusLabel: labels[status] ?? "?", isOutgoing: true,
        timeText: time, canRetry: status == .failed)
}

/// The row of a message of `ChatFixture.history` (read, 5 hours old) or of a queued one (just composed).
func historyRow(_ message: Message, time: String? = nil) -> MessageRow {
    let mine = message.senderID == "me"
    let label = mine ? (message.status == .queued ? "Queued" : "Read") : ""
    return MessageRow(
        id: message.id, text: message.text, status: message.status, senderID: message.senderID,
        statusLabel: label, isOutgoing: mine, timeText: time ?? (message.status == .queued ? "Now" : "5h ago"),
        canRetry: false)
}
