import CourierDomain

extension ConnectivityBannerViewModel {
    // MARK: - Output

    /// What the connectivity banner, the reconnect toast and the brief "Connected" notice show.
    public struct State: Equatable, Sendable {
        /// Whether the device is online.
        public var isOnline: Bool
        /// The persistent offline banner.
        public var banner: Banner
        /// The toast that asks, on reconnect, whether to send the queue.
        public var toast: Toast
        /// Whether the brief "Connected" notice shows (for 2 s after reconnecting).
        public var connected: Bool
        /// False while the device has a path but the backend cannot be reached: the banner then says so
        /// (`unreachableText`) instead of "You're offline".
        public var isBackendReachable: Bool
        /// The brief notice's words ("Connected"), from the strings table.
        public var connectedNotice: String

        /// The notice ("Connected") while `connected`, otherwise empty.
        public var connectedText: String { connected ? connectedNotice : "" }

        /// Creates a state.
        public init(
            isOnline: Bool, banner: Banner, toast: Toast, connected: Bool, isBackendReachable: Bool = true,
            connectedNotice: String = CourierStrings.english.connected
        ) {
            self.isOnline = isOnline
            self.banner = banner
            self.toast = toast
            self.connected = connected
            self.isBackendReachable = isBackendReachable
            self.connectedNotice = connectedNotice
        }
    }

    /// The offline banner: "You're offline. 3 messages queued." with Send All; online, "Reconnecting..." while the
    /// automatic policy sends the queue.
    public struct Banner: Equatable, Sendable {
        /// Shown while offline, and while an automatic pass sends the queue after reconnecting.
        public var visible: Bool
        /// The banner's text; empty while hidden.
        public var text: String
        /// Pending messages waiting for the user or the network (queued and failed, every conversation); kept
        /// current while the banner is hidden too.
        public var queuedCount: Int
        /// Whether the Send All button shows (visible, with something queued, not pressed yet).
        public var showsSendAll: Bool
        /// Whether Send All was pressed offline: the queue goes the moment the device is back.
        public var sendsWhenOnline = false
        /// The Send All button's label.
        public var sendAllLabel: String

        /// Creates a banner.
        public init(
            visible: Bool, text: String, queuedCount: Int, showsSendAll: Bool,
            sendAllLabel: String = CourierStrings.english.sendAll
        ) {
            self.visible = visible
            self.text = text
            self.queuedCount = queuedCount
            self.showsSendAll = showsSendAll
            self.sendAllLabel = sendAllLabel
        }
    }

    /// The reconnect toast: "Connected. Auto-send 3 queued messages?" with Yes / Review First.
    public struct Toast: Equatable, Sendable {
        /// Whether it shows.
        public var visible: Bool
        /// Its text; empty while hidden.
        public var text: String
        /// The messages Yes would send; 0 while hidden.
        public var queuedCount: Int
        /// The Yes button's label (sends the queue).
        public var yesLabel: String
        /// The Review First button's label (opens the Offline Queue).
        public var reviewFirstLabel: String

        /// Creates a toast.
        public init(
            visible: Bool, text: String, queuedCount: Int, yesLabel: String = CourierStrings.english.toastYes,
            reviewFirstLabel: String = CourierStrings.english.toastReviewFirst
        ) {
            self.visible = visible
            self.text = text
            self.queuedCount = queuedCount
            self.yesLabel = yesLabel
            self.reviewFirstLabel = reviewFirstLabel
        }

        /// No toast.
        public static let hidden = Toast(visible: false, text: "", queuedCount: 0)
    }

    /// Navigation that leaves the banner.
    public struct Actions {
        /// Review First: open the Offline Queue.
        public var showOfflineQueue: @MainActor () -> Void

        /// Creates the actions (each does nothing by default).
        public init(showOfflineQueue: @escaping @MainActor () -> Void = {}) {
            self.showOfflineQueue = showOfflineQueue
        }
    }

    // MARK: - Texts (the English table's, for callers that name them)

    /// The offline banner's text: "You're offline. 1 message queued." / "… 3 messages queued."; with nothing
    /// queued, "You're offline. Messages will send when reconnected.".
    public static func offlineText(queuedCount: Int) -> String { CourierStrings.english.offlineBanner(queuedCount) }

    /// The banner's text while the device has a path but the backend cannot be reached: "Can't reach the server. 1
    /// message queued."; with nothing queued, "Can't reach the server. Messages will send when it's back.".
    public static func unreachableText(queuedCount: Int) -> String {
        CourierStrings.english.unreachableBanner(queuedCount)
    }

    /// The toast's text: "Connected. Auto-send 1 queued message?" / "… 3 queued messages?".
    public static func toastText(queuedCount: Int) -> String { CourierStrings.english.reconnectToast(queuedCount) }

    /// The banner's text offline after Send All: "You're offline. 3 messages will send when you're back online."
    public static func sendsWhenOnlineText(queuedCount: Int, reachable: Bool = true) -> String {
        reachable
            ? CourierStrings.english.offlineSendsWhenBack(queuedCount)
            : CourierStrings.english.unreachableSendsWhenBack(queuedCount)
    }

    /// The banner's text while the automatic policy sends the queue after reconnecting.
    public static let reconnectingText = CourierStrings.english.reconnecting

    /// The brief notice after reconnecting.
    public nonisolated static let connectedText = CourierStrings.english.connected
}
