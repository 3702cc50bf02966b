import CourierDomain

extension ChatViewModel {
    /// What the chat screen shows.
    public struct State: Equatable, Sendable {
        /// The open conversation.
        public var conversationID: ConversationID
        /// The screen's title.
        public var title: String
        /// The loaded messages in compose order (oldest first), pending ones included.
        public var messages: [MessageRow]
        /// Whether older messages can be loaded (false until the first page arrives).
        public var hasMore: Bool
        /// Whether the newest page is loading.
        public var isLoading: Bool
        /// Whether an older page is loading.
        public var isLoadingOlder: Bool
        /// The text of the current error (story 2.4); cleared when the next send succeeds.
        public var error: String?
        /// Whether the device is online.
        public var isOnline: Bool
        /// The offline banner, mirrored from the shared `ConnectivityBannerViewModel`.
        public var banner: ConnectivityBannerViewModel.Banner
        /// The reconnect toast, mirrored from the shared `ConnectivityBannerViewModel`.
        public var toast: ConnectivityBannerViewModel.Toast
        /// Whether the brief "Connected" notice shows, mirrored from the shared `ConnectivityBannerViewModel`.
        public var connected: Bool
        /// The failed messages of this chat, in compose order (what `retry`/`delete` act on).
        public var failedMessageIDs: [MessageID]
        /// The alert a tap on a failed message shows (story 2.4), if any.
        public var alert: FailedMessageAlert?

        /// Creates a state.
        public init(
            conversationID: ConversationID, title: String, messages: [MessageRow] = [], hasMore: Bool = false,
            isLoading: Bool = false, isLoadingOlder: Bool = false, error: String? = nil, isOnline: Bool,
            banner: ConnectivityBannerViewModel.Banner, toast: ConnectivityBannerViewModel.Toast, connected: Bool,
            failedMessageIDs: [MessageID] = [], alert: FailedMessageAlert? = nil
        ) {
            self.conversationID = conversationID
            self.title = title
            self.messages = messages
            self.hasMore = hasMore
            self.isLoading = isLoading
            self.isLoadingOlder = isLoadingOlder
            self.error = error
            self.isOnline = isOnline
            self.banner = banner
            self.toast = toast
            self.connected = connected
            self.failedMessageIDs = failedMessageIDs
            self.alert = alert
        }
    }

    /// The alert over a failed message: "Message failed to send." with Retry, Delete and Cancel (story 2.4).
    public struct FailedMessageAlert: Equatable, Sendable {
        /// The failed message it is about.
        public var messageID: MessageID
        /// "Message Failed".
        public var title: String
        /// "This message failed to send. Would you like to retry or delete it?"
        public var message: String
        /// "Retry", "Delete", "Cancel".
        public var actions: [String]

        /// The alert for `messageID`.
        public init(messageID: MessageID) {
            self.messageID = messageID
            title = "Message Failed"
            message = "This message failed to send. Would you like to retry or delete it?"
            actions = ["Retry", "Delete", "Cancel"]
        }
    }
}
