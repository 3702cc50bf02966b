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
        /// The text of the current error; cleared when the next send succeeds.
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
        /// The alert or action sheet a tap on a failed or queued message shows, if any.
        public var alert: MessageAlert?

        /// Creates a state.
        public init(
            conversationID: ConversationID, title: String, messages: [MessageRow] = [], hasMore: Bool = false,
            isLoading: Bool = false, isLoadingOlder: Bool = false, error: String? = nil, isOnline: Bool,
            banner: ConnectivityBannerViewModel.Banner, toast: ConnectivityBannerViewModel.Toast, connected: Bool,
            failedMessageIDs: [MessageID] = [], alert: MessageAlert? = nil
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

    /// The failed-message alert's earlier name: it is the `.failed` kind of `MessageAlert`.
    public typealias FailedMessageAlert = MessageAlert

    /// The alert or action sheet over a message: the alert over a failed one ("Message Failed" with Retry,
    /// Delete, Cancel), the action sheet over a queued one (Cancel, Info, Dismiss) and the Info alert it opens.
    public struct MessageAlert: Equatable, Sendable {
        /// Which of the three it is.
        public enum Kind: Equatable, Sendable {
            /// Over a failed message: Retry, Delete, Cancel.
            case failed
            /// The action sheet over a queued message: Cancel (removes it for good), Info, Dismiss.
            case queuedActions
            /// Info about a queued message, with OK.
            case queuedInfo
        }

        /// Which alert it is.
        public var kind: Kind
        /// The message it is about.
        public var messageID: MessageID
        /// Its title.
        public var title: String
        /// Its text.
        public var message: String
        /// Its buttons' labels, in order.
        public var actions: [String]

        /// The alert of `kind` for `messageID` (the failed-message alert by default).
        public init(messageID: MessageID, kind: Kind = .failed) {
            self.kind = kind
            self.messageID = messageID
            switch kind {
            case .failed:
                title = "Message Failed"
                message = "This message failed to send. Would you like to retry or delete it?"
                actions = ["Retry", "Delete", "Cancel"]
            case .queuedActions:
                title = "Queued Message"
                message = "This message is waiting for a connection."
                actions = ["Cancel", "Info", "Dismiss"]
            case .queuedInfo:
                title = "Queued Message"
                message = "This message will send automatically when you're back online"
                actions = ["OK"]
            }
        }

        /// The status the message must keep for the alert to stay.
        var requiredStatus: MessageStatus { kind == .failed ? .failed : .queued }
    }
}
