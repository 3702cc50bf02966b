import CourierDomain

/// Every text a Courier screen shows, in one table an app can replace as a whole or in part — its own language, its
/// own tone. Each view model takes one (`strings:`, `.english` by default) and puts its words into its state, so a
/// screen shows what the state says and writes nothing itself. A text that holds a count is a function of it, so a
/// language with other plural rules fits; so is a text that depends on a status or an error.
///
/// ```swift
/// var strings = CourierStrings.english
/// strings.toastYes = "Oui"
/// strings.reconnectToast = { "Connecté. Envoyer \($0) message(s) en attente ?" }
/// let banner = ConnectivityBannerViewModel(session: client, strings: strings)
/// ```
///
/// The defaults are the product documents' English (`CourierStrings+English.swift`); no other Presentation source
/// holds a user-facing literal (the `StringsTableTests` scan checks it).
public struct CourierStrings: Sendable {
    /// The English table, the documents' words.
    public static let english = CourierStrings()

    // MARK: - Buttons

    /// "Retry".
    public var retry = "Retry"
    /// "Delete".
    public var delete = "Delete"
    /// "Cancel".
    public var cancel = "Cancel"
    /// "Info".
    public var info = "Info"
    /// "Dismiss".
    public var dismiss = "Dismiss"
    /// "Send Now".
    public var sendNow = "Send Now"
    /// "OK".
    public var ok = "OK"
    /// "Save".
    public var save = "Save"
    /// "Edit" (an Offline Queue row's button).
    public var edit = "Edit"
    /// The chat's notice while a message composed offline waits: "Message queued - will send when online".
    public var queuedNotice = "Message queued - will send when online"
    /// "Close" (the Offline Queue's button that closes it).
    public var close = "Close"
    /// "Send All" (the banner's and the Offline Queue's button).
    public var sendAll = "Send All"

    // MARK: - Connectivity

    /// The offline banner for a count of waiting messages: "You're offline. 3 messages queued.".
    public var offlineBanner: @Sendable (Int) -> String = English.offlineBanner
    /// The banner while the backend cannot be reached: "Can't reach the server. 3 messages queued.".
    public var unreachableBanner: @Sendable (Int) -> String = English.unreachableBanner
    /// What the banner adds for failed messages, which are never called queued: "1 message failed.".
    public var failedCount: @Sendable (Int) -> String = English.failedCount
    /// What a chat adds under the banner when its count covers other chats, given how many of the banner's
    /// messages are elsewhere and the banner's count: "2 of them are in other chats.", "All of them are in other
    /// chats.".
    public var queuedElsewhere: @Sendable (Int, Int) -> String = English.queuedElsewhere
    /// The banner online while messages wait for the user (queued under the manual policy, or failed): "3 messages
    /// waiting to send.".
    public var waitingBanner: @Sendable (Int) -> String = English.waitingBanner
    /// The banner offline after Send All: "You're offline. 3 messages will send when you're back online.".
    public var offlineSendsWhenBack: @Sendable (Int) -> String = English.offlineSendsWhenBack
    /// The banner unreachable after Send All: "Can't reach the server. 3 messages will send when it's back.".
    public var unreachableSendsWhenBack: @Sendable (Int) -> String = English.unreachableSendsWhenBack
    /// The banner while the automatic policy sends the queue after reconnecting.
    public var reconnecting = "Reconnecting..."
    /// The brief notice after reconnecting.
    public var connected = "Connected"
    /// The reconnect toast: "Connected. Auto-send 3 queued messages?".
    public var reconnectToast: @Sendable (Int) -> String = English.reconnectToast
    /// The toast's Yes.
    public var toastYes = "Yes"
    /// The toast's Review First.
    public var toastReviewFirst = "Review First"

    // MARK: - Messages and times

    /// The chat's label for a status under an outgoing bubble: "Queued", "Sending...", "Sent", "Delivered", "Read",
    /// "Failed - Tap to retry".
    public var messageStatus: @Sendable (MessageStatus) -> String = English.messageStatus
    /// The mark a bubble can show for a status, as story 2.4 writes them: "Queued", "Sending...", "✓ Sent",
    /// "✓✓ Delivered", "✓✓ Read", "⚠️ Failed - Tap to retry" (`MessageRow.statusMark(for:)`).
    public var statusMark: @Sendable (MessageStatus) -> String = English.statusMark
    /// The Offline Queue's badge for a pending status: "Queued", "Sending...", "Failed".
    public var queueBadge: @Sendable (MessageStatus) -> String = English.queueBadge
    /// The chat's label and the Offline Queue's badge for a queued message whose last send had no answer
    /// (`Message.outcomeUnknown`): it may have arrived, and goes again under its id when the server answers.
    public var unconfirmedLabel = "Not confirmed - will check with the server"
    /// When something happened: "Now", "5m ago", "3h ago", "Yesterday", "Oct 19".
    public var relativeTime: @Sendable (RelativeTime) -> String = English.relativeTime
    /// What a user reads about a send that failed with an error.
    public var deliveryError: @Sendable (DeliveryError) -> String = English.deliveryError
    /// What an image without a caption previews as in the list.
    public var photoPreview = "Photo"

    // MARK: - Chat

    /// The other person's status, online.
    public var presenceOnline = "Online"
    /// Their status when the backend never saw them.
    public var presenceOffline = "Offline"
    /// Their status when last seen: "Last seen just now", "Last seen 5m ago", "Last seen yesterday".
    public var lastSeen: @Sendable (RelativeTime) -> String = English.lastSeen
    /// Above the oldest message, once nothing older is left.
    public var beginningOfConversation = "Beginning of conversation"
    /// An uncached chat opened offline.
    public var chatOfflineLoad = "You're offline. This conversation will load when you're back online."
    /// An uncached chat opened while the backend cannot be reached.
    public var chatUnreachableLoad = "Can't reach the server. This conversation will load when it's back."
    /// A page refused: no access.
    public var chatLoadForbidden = "You don't have access to this conversation."
    /// A page refused: no such conversation.
    public var chatLoadNotFound = "Conversation not found."
    /// The newest page failed to load.
    public var chatLoadFailed = "Failed to load messages. Please try again."
    /// An older page failed to load.
    public var chatLoadMoreFailed = "Failed to load more messages"
    /// The failed-message alert's title.
    public var failedAlertTitle = "Message Failed"
    /// The failed-message alert's text.
    public var failedAlertMessage = "This message failed to send. Would you like to retry or delete it?"
    /// The queued message's sheet and Info alert's title.
    public var queuedAlertTitle = "Queued Message"
    /// The sheet over a queued message, offline.
    public var queuedSheetWaitingForConnection = "This message is waiting for a connection."
    /// The sheet online under the manual policy.
    public var queuedSheetWaitingForUser = "This message is waiting for you to send it."
    /// The sheet online under the automatic policy.
    public var queuedSheetAboutToSend = "This message is about to send."
    /// Info, offline.
    public var queuedInfoConnection = "This message will send automatically when you're back online"
    /// Info online under the manual policy.
    public var queuedInfoUser =
        "You're online. Queued messages wait until you send them: tap Send Now, or Send All in the Offline Queue."
    /// Info online under the automatic policy.
    public var queuedInfoPolicy = "You're online. This message will send automatically in a moment."

    // MARK: - Offline Queue

    /// The Offline Queue's title for a count: "Offline Queue (3)".
    public var queueTitle: @Sendable (Int) -> String = English.queueTitle
    /// The empty queue's title.
    public var queueEmptyTitle = "No Queued Messages"
    /// The empty queue's explanation.
    public var queueEmptyMessage = "Messages you compose offline will appear here"
    /// The edit sheet's title.
    public var editSheetTitle = "Edit Message"
    /// The confirmation before a queued message is deleted: its title.
    public var deleteMessageTitle = "Delete Message"
    /// Its text.
    public var deleteMessageText = "This message will be deleted and will not be sent."

    // MARK: - Conversations

    /// The confirmation before a conversation is deleted: its title.
    public var deleteConversationTitle = "Delete Conversation"
    /// Its text, for the queued and failed messages that go with it: "This conversation will be removed from your
    /// list, and its 2 queued messages will be discarded.".
    public var deleteConversationMessage: @Sendable (_ queued: Int, _ failed: Int) -> String =
        English.deleteConversationMessage
    /// A store refused a deletion.
    public var conversationDeletionFailed = "Couldn't delete the conversation. Please try again."
    /// The list could not load more, offline.
    public var conversationsOffline = "No internet connection. Showing the conversations loaded so far."
    /// The list could not load more, the backend out of reach.
    public var conversationsUnreachable = "Can't reach the server. Showing the conversations loaded so far."
    /// The list could not load.
    public var conversationsFailed = "Couldn't load conversations. Please try again."

    // MARK: - Profile

    /// Why a stale write was given up.
    public var writeExpired = "expired"
    /// Why a write was given up after too many failed attempts: "gave up (timeout)".
    public var writeAbandoned: @Sendable (DeliveryError) -> String = English.writeAbandoned
    /// The line for a write of a kind given up for a reason: "profile.displayName: expired".
    public var writeGivenUp: @Sendable (_ kind: String, _ why: String) -> String = English.writeGivenUp

    // MARK: - Lookups

    /// The label of `action`'s button.
    public func label(for action: DialogAction) -> String {
        switch action {
        case .retry: retry
        case .delete: delete
        case .cancel: cancel
        case .info: info
        case .dismiss: dismiss
        case .sendNow: sendNow
        case .ok: ok
        case .save: save
        }
    }

    /// The action among `actions` whose label is `label`, in any case.
    public func action(labelled label: String, among actions: [DialogAction]) -> DialogAction? {
        actions.first { self.label(for: $0).lowercased() == label.lowercased() }
    }
}
