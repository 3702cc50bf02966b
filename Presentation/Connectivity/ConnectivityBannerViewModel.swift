import CourierDomain
import Foundation

/// The offline banner, the reconnect toast and the brief "Connected" notice, shared by the chat and the driver.
///
/// - Offline: the banner counts the pending messages that wait (queued and failed, every conversation).
/// - Back online (a change, not the first reading): "Connected" shows for `connectedDuration`; with the manual
///   policy and something queued, the toast asks whether to send it and hides itself after `toastDuration`.
///   With the automatic policy no toast shows: the outbox sends by itself, and the banner reads "Reconnecting..."
///   until no message is queued or sending any more (or the device goes offline, or sign-in pauses sending).
/// - With `promptsAtLaunch`, created online with something waiting and the manual policy (the app relaunched with
///   a queue): the toast asks too — nothing else would tell the user that messages wait.
/// - Going offline hides the toast: Yes could send nothing. Its countdown goes on, so flicker neither stacks it nor
///   restarts it: back online before the countdown ends, the same toast shows again for the time left.
/// - The toast also hides once nothing is left to send, and as soon as a waiting message starts to send: a Send All
///   started anywhere (the banner, the Offline Queue, the toast's Yes) answers its question.
/// - The banner's Send All while offline sends nothing — nothing can go — and says so: the queue is set to go the
///   moment the device is back (the banner reads "… will send when you're back online", and no toast asks again).
@MainActor
public final class ConnectivityBannerViewModel: StateEmitting {
    // MARK: - Dependencies

    private let outbox: any MessageOutbox
    private let connectivity: any ConnectivityMonitor
    private let logger: Logger
    private let strings: CourierStrings
    private let toastDuration: Duration
    private let connectedDuration: Duration
    private let toastTimer: ClockTimer
    private let connectedTimer: ClockTimer
    private let tasks: TaskTracker
    private let store: StateStore<State>
    /// Screens that show the banner inside their own state (`follow(_:)`).
    private let followers = ObserverList<(state: State, event: OutboxEvent?)>()
    private var tokens: [ObservationToken] = []

    /// Where navigation goes; may be set after creation.
    public var actions: Actions

    // MARK: - Internal state

    private var isOnline: Bool?
    /// How many queued and failed messages waited at the last look: the outbox counts them (O(1) for one whose
    /// store keeps the counts), so a launch with 10,000 queued reads two numbers rather than every message.
    private var waitingCount: Int
    /// Whether the toast's countdown runs (the toast shows only while online).
    private var toastVisible = false
    private var connected = false
    private var reconnecting = false

    // MARK: - Init

    /// Creates the view model and starts observing connectivity and the outbox; `promptsAtLaunch` asks about a
    /// queue found online at once (the app's launch), as a reconnect does. Its texts are `strings`'.
    public init(
        connectivity: any ConnectivityMonitor, outbox: any MessageOutbox, clock: any Clock,
        actions: Actions = Actions(), logger: Logger = .silent, toastDuration: Duration = .seconds(10),
        connectedDuration: Duration = .seconds(2), promptsAtLaunch: Bool = false, strings: CourierStrings = .english
    ) {
        self.outbox = outbox
        self.strings = strings
        self.connectivity = connectivity
        self.actions = actions
        self.logger = logger
        self.toastDuration = toastDuration
        self.connectedDuration = connectedDuration
        toastTimer = ClockTimer(clock: clock)
        tasks = TaskTracker(clock: clock)
        connectedTimer = ClockTimer(clock: clock)
        waitingCount = Self.waiting(in: outbox)
        let online = connectivity.isOnline
        store = StateStore(
            Self.makeState(
                online: online, waiting: waitingCount, failed: outbox.pendingCount(of: .failed), toast: false,
                connected: false, reconnecting: false, reachable: connectivity.isBackendReachable, strings: strings))
        tokens.append(outbox.observe { [weak self] event in self?.outboxChanged(event) })
        tokens.append(connectivity.observe { [weak self] online in self?.connectivityChanged(online) })
        if promptsAtLaunch, online, outbox.policy == .manual, waitingCount > 0, !outbox.sendAllRequested {
            showToast()
            render()
        }
    }

    // MARK: - Output

    /// The current state.
    public var state: State { store.state }

    /// Replays the current state to `observer`, then calls it on every change.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        store.observe(observer)
    }

    /// Whether work started by an input (Yes, Send All) still runs. Timers do not count.
    public var hasPendingWork: Bool { !tasks.isIdle }

    /// For a screen that shows the banner inside its own state and follows the outbox too (the chat): calls
    /// `follower` with every change of the banner's state and every outbox event, each once, with the banner's state
    /// after it — so that the screen hears an event and what it did to the banner together, and shows both in one
    /// state (docs/design.md §5). Connectivity reaches the follower this way alone. Replays nothing.
    func follow(_ follower: @escaping @MainActor (State, OutboxEvent?) -> Void) -> ObservationToken {
        followers.add { follower($0.state, $0.event) }
    }

    // MARK: - Inputs

    /// Yes: hides the toast and sends every queued and failed message. Throws `noToastShowing` without a toast.
    public func acceptToast() throws {
        try hideToast()
        logger.log(.info, "toast accepted: sending \(Self.waiting(in: outbox)) queued messages")
        let outbox = outbox
        tasks.run { await outbox.sendAll() }
    }

    /// Review First: hides the toast and opens the Offline Queue. Throws `noToastShowing` without a toast.
    public func reviewToast() throws {
        try hideToast()
        actions.showOfflineQueue()
    }

    /// Dismisses the toast. Throws `noToastShowing` without a toast.
    public func dismissToast() throws {
        try hideToast()
    }

    /// What the banner's Send All did.
    public enum SendAllOutcome: Equatable, Sendable {
        /// Online: this many queued and failed messages began to send.
        case sending(Int)
        /// Offline: nothing could go; this many will send the moment the device is back online.
        case sendsWhenOnline(Int)
        /// Nothing waits.
        case nothingWaiting
    }

    /// The banner's Send All: online, sends every queued and failed message; offline, sets them to go the moment
    /// the device is back (the banner says so). The outbox keeps the request durably either way
    /// (`MessageOutbox.sendAllRequested`): a relaunch does not forget it. Returns which, so a screen never claims to
    /// send what it did not.
    @discardableResult
    public func sendAll() -> SendAllOutcome {
        let waiting = Self.waiting(in: outbox)
        guard waiting > 0 else { return .nothingWaiting }
        let online = isOnline ?? true
        let outbox = outbox
        tasks.run { [weak self] in
            await outbox.sendAll()
            self?.render()
        }
        return online ? .sending(waiting) : .sendsWhenOnline(waiting)
    }

    /// The banner's Review: opens the Offline Queue.
    public func review() {
        actions.showOfflineQueue()
    }

    // MARK: - Events

    private func connectivityChanged(_ online: Bool) {
        let previous = isOnline
        isOnline = online
        defer { render() }
        guard let previous, previous != online else { return }
        if online {
            connected = true
            connectedTimer.schedule(after: connectedDuration) { [weak self] in
                self?.connected = false
                self?.render()
            }
            if outbox.sendAllRequested {
                // The user already said Send All (in this launch or an earlier one): no question, the outbox sends.
                reconnecting = !outbox.isPausedForSignIn && Self.waiting(in: outbox) > 0
                return
            }
            if outbox.policy == .manual, Self.waiting(in: outbox) > 0, !toastVisible { showToast() }
            // Held by an expired sign-in, the queue does not go: nothing to announce.
            reconnecting = outbox.policy == .automatic && !outbox.isPausedForSignIn && Self.inFlight(in: outbox) > 0
        } else {
            connected = false
            reconnecting = false
            connectedTimer.cancel()
        }
    }

    private func showToast() {
        toastVisible = true
        toastTimer.schedule(after: toastDuration) { [weak self] in
            self?.toastVisible = false
            self?.render()
        }
    }

    private func outboxChanged(_ event: OutboxEvent) {
        // The outbox may hear a change of connection before this banner does (its observer ran first, and a Send All
        // the user asked for goes at once): catch up first, so what it sends as the device comes back is never drawn
        // under the offline banner.
        if let known = isOnline, known != connectivity.isOnline { connectivityChanged(connectivity.isOnline) }
        switch event {
        case .changed(let message):
            // A waiting message starting to send means a Send All (or Send Now) began somewhere — this banner, the
            // Offline Queue, the toast: the toast's question is answered, so it goes. The outbox tells each change
            // as it records it, so one fewer waiting on a `sending` event is that message leaving the wait.
            if message.status == .sending, Self.waiting(in: outbox) < waitingCount, toastVisible {
                toastVisible = false
                toastTimer.cancel()
            }
        case .deleted:
            break
        case .pausedForSignIn(let paused):
            guard paused, reconnecting else {
                followers.notify((store.state, event))
                return
            }
            reconnecting = false
        }
        if Self.inFlight(in: outbox) == 0 { reconnecting = false }
        if Self.waiting(in: outbox) == 0 && toastVisible {
            toastVisible = false
            toastTimer.cancel()
        }
        render(after: event)
    }

    // MARK: - Rendering

    private func hideToast() throws {
        guard toastVisible, isOnline ?? true else { throw PresentationError.noToastShowing }
        toastVisible = false
        toastTimer.cancel()
        render()
    }

    /// Draws the banner again; followers hear of a change, and of `event` (the outbox's) whether or not it changed
    /// anything here.
    private func render(after event: OutboxEvent? = nil) {
        waitingCount = Self.waiting(in: outbox)
        let next = Self.makeState(
            online: isOnline ?? true, waiting: waitingCount, failed: outbox.pendingCount(of: .failed),
            toast: toastVisible, connected: connected,
            reconnecting: reconnecting, reachable: connectivity.isBackendReachable,
            sendsWhenOnline: outbox.sendAllRequested, strings: strings)
        guard next != store.state || event != nil else { return }
        store.update { $0 = next }
        followers.notify((next, event))
    }

    /// Queued and failed messages: what waits for the user or the policy.
    private static func waiting(in outbox: any MessageOutbox) -> Int {
        outbox.pendingCount(of: .queued) + outbox.pendingCount(of: .failed)
    }

    /// Queued and sending messages: what an automatic pass still has to do.
    private static func inFlight(in outbox: any MessageOutbox) -> Int {
        outbox.pendingCount(of: .queued) + outbox.pendingCount(of: .sending)
    }

    private static func makeState(
        online: Bool, waiting: Int, failed: Int, toast: Bool, connected: Bool, reconnecting: Bool, reachable: Bool,
        sendsWhenOnline: Bool = false, strings: CourierStrings
    ) -> State {
        let armed = sendsWhenOnline && waiting > 0
        // Failed messages are never called queued: the queued count, then the failed one when there are any.
        let queued = waiting - failed
        let failedNote = failed > 0 ? " " + strings.failedCount(failed) : ""
        let away =
            armed
            ? (reachable ? strings.offlineSendsWhenBack(waiting) : strings.unreachableSendsWhenBack(waiting))
            : (reachable ? strings.offlineBanner(queued) : strings.unreachableBanner(queued)) + failedNote
        // Online, the banner stays while anything waits for the user: the toast is one reminder, not the only one.
        let here = reconnecting ? strings.reconnecting : waiting > 0 ? strings.waitingBanner(waiting) : ""
        let text = online ? here : away
        var banner = Banner(
            visible: !online || reconnecting || waiting > 0, text: text, queuedCount: waiting,
            showsSendAll: waiting > 0 && !armed && !(online && reconnecting), sendAllLabel: strings.sendAll)
        banner.sendsWhenOnline = armed && !online
        let shownToast = toast && online
        let toast = Toast(
            visible: shownToast, text: shownToast ? strings.reconnectToast(waiting) : "",
            queuedCount: shownToast ? waiting : 0, yesLabel: strings.toastYes,
            reviewFirstLabel: strings.toastReviewFirst)
        let shown = connected && online
        return State(
            isOnline: online, banner: banner, toast: toast, connected: shown, isBackendReachable: online || reachable,
            connectedNotice: strings.connected)
    }
}
