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
        /// The other person's status under the title ("Online", "Last seen 5m ago"); nil when not known (or not
        /// asked: `showPresence(of:from:)`).
        public var presence: String?
        /// The marker above the oldest message once nothing older is left ("Beginning of conversation"), in the
        /// strings table's words; `showsBeginning` says when it shows.
        public var beginningText: String

        /// What the chat adds under the banner while the banner's count covers other chats ("2 of them are in other
        /// chats."): the banner and its Send All count every conversation, and say so here; nil while the banner
        /// is hidden or every message it counts is this chat's.
        public var bannerElsewhereText: String?
        /// The notice under a message composed offline ("Message queued - will send when online"), in the strings
        /// table's words; `showsQueuedNotice` says when it shows.
        public var queuedNoticeText = CourierStrings.english.queuedNotice

        /// Whether the beginning marker shows: the newest page has loaded and nothing older is left.
        public var showsBeginning: Bool { !hasMore && !isLoading }

        /// Whether the queued notice shows: the device is offline and a message of this chat waits queued. It goes
        /// as soon as either ends (back online, the message sent or deleted): it never outlives its truth.
        public var showsQueuedNotice: Bool { !isOnline && messages.contains { $0.status == .queued } }

        /// Creates a state.
        public init(
            conversationID: ConversationID, title: String, messages: [MessageRow] = [], hasMore: Bool = false,
            isLoading: Bool = false, isLoadingOlder: Bool = false, error: String? = nil, isOnline: Bool,
            banner: ConnectivityBannerViewModel.Banner, toast: ConnectivityBannerViewModel.Toast, connected: Bool,
            failedMessageIDs: [MessageID] = [], alert: MessageAlert? = nil, presence: String? = nil,
            beginningText: String = CourierStrings.english.beginningOfConversation
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
            self.presence = presence
            self.beginningText = beginningText
        }
    }

    /// The failed-message alert's earlier name: it is the `.failed` kind of `MessageAlert`.
    public typealias FailedMessageAlert = MessageAlert

    /// The alert or action sheet over a message: the alert over a failed one ("Message Failed" with Retry,
    /// Delete, Cancel), the action sheet over a queued one (Cancel, Info, Dismiss) and the Info alert it opens.
    public struct MessageAlert: Equatable, Sendable, DialogButtons {
        /// Which of the three it is.
        public enum Kind: Equatable, Sendable {
            /// Over a failed message: Retry, Delete, Cancel.
            case failed
            /// The action sheet over a queued message: Cancel (removes it for good), Info, Dismiss.
            case queuedActions
            /// Info about a queued message, with OK.
            case queuedInfo
        }

        /// What a queued message waits for, as the sheet and its Info say it.
        public enum Wait: Equatable, Sendable {
            /// The device is offline (or the backend cannot be reached): it goes once back online.
            case connection
            /// Online under the manual policy: it waits for the user to send it (Send Now, or Send All).
            case user
            /// Online under the automatic policy: it goes by itself in a moment.
            case policy
        }

        /// Which alert it is.
        public var kind: Kind
        /// For a queued message, what it waits for (`.connection` for the failed-message alert).
        public var wait: Wait
        /// The message it is about.
        public var messageID: MessageID
        /// Its title.
        public var title: String
        /// Its text.
        public var message: String
        /// Its buttons, in order, by what they do.
        public var buttons: [DialogAction]
        /// Its buttons' labels, in order (the strings table's words for `buttons`).
        public var actions: [String]
        /// The table its words come from, kept so a change of `wait` words the new alert alike.
        let strings: CourierStrings

        /// The alert of `kind` for `messageID` (the failed-message alert by default), in `strings`' words; a queued
        /// message's sheet and Info say what it waits for — online, a queued message has Send Now first.
        public init(
            messageID: MessageID, kind: Kind = .failed, wait: Wait = .connection, strings: CourierStrings = .english
        ) {
            self.kind = kind
            self.messageID = messageID
            self.strings = strings
            self.wait = kind == .failed ? .connection : wait
            title = kind == .failed ? strings.failedAlertTitle : strings.queuedAlertTitle
            switch (kind, self.wait) {
            case (.failed, _):
                message = strings.failedAlertMessage
                buttons = [.retry, .delete, .cancel]
            case (.queuedActions, .connection):
                message = strings.queuedSheetWaitingForConnection
                buttons = [.cancel, .info, .dismiss]
            case (.queuedActions, .user):
                message = strings.queuedSheetWaitingForUser
                buttons = [.sendNow, .cancel, .info, .dismiss]
            case (.queuedActions, .policy):
                message = strings.queuedSheetAboutToSend
                buttons = [.sendNow, .cancel, .info, .dismiss]
            case (.queuedInfo, .connection):
                message = strings.queuedInfoConnection
                buttons = [.ok]
            case (.queuedInfo, .user):
                message = strings.queuedInfoUser
                buttons = [.sendNow, .ok]
            case (.queuedInfo, .policy):
                message = strings.queuedInfoPolicy
                buttons = [.sendNow, .ok]
            }
            actions = buttons.map(strings.label(for:))
        }

        /// Alerts are equal when they show the same thing about the same message.
        public static func == (lhs: MessageAlert, rhs: MessageAlert) -> Bool {
            lhs.kind == rhs.kind && lhs.wait == rhs.wait && lhs.messageID == rhs.messageID && lhs.title == rhs.title
                && lhs.message == rhs.message && lhs.buttons == rhs.buttons && lhs.actions == rhs.actions
        }

        /// The same alert for a message that now waits for `wait` (connectivity or the policy changed under it).
        func waiting(for wait: Wait) -> MessageAlert {
            kind == .failed || wait == self.wait
                ? self : MessageAlert(messageID: messageID, kind: kind, wait: wait, strings: strings)
        }

        /// The status the message must keep for the alert to stay.
        var requiredStatus: MessageStatus { kind == .failed ? .failed : .queued }
    }
}
