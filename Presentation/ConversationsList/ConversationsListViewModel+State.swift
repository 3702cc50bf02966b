import CourierDomain

extension ConversationsListViewModel {
    /// What the conversation list shows.
    public struct State: Equatable, Sendable {
        /// The rows, most recent activity first.
        public var items: [ConversationsListItem]
        /// Whether more conversations can be loaded.
        public var hasMore: Bool
        /// Whether a page is loading.
        public var isLoading: Bool
        /// What went wrong with the last load or deletion, as the user reads it; nil when it went well.
        public var error: String?
        /// The confirmation a Delete on a row shows, if any.
        public var alert: DeleteAlert?

        /// Creates a state.
        public init(
            items: [ConversationsListItem] = [], hasMore: Bool = false, isLoading: Bool = false, error: String? = nil,
            alert: DeleteAlert? = nil
        ) {
            self.items = items
            self.hasMore = hasMore
            self.isLoading = isLoading
            self.error = error
            self.alert = alert
        }
    }

    /// The confirmation before a conversation is deleted: "Delete Conversation", saying what goes with it — how
    /// many queued and failed messages are discarded — with Delete and Cancel.
    public struct DeleteAlert: Equatable, Sendable, DialogButtons {
        /// The conversation it is about.
        public var conversationID: ConversationID
        /// Its title.
        public var title: String
        /// Its text.
        public var message: String
        /// Its buttons, in order, by what they do: Delete, Cancel.
        public var buttons: [DialogAction]
        /// Its buttons' labels, in order (the strings table's words for `buttons`).
        public var actions: [String]

        /// The confirmation for `conversationID`, which holds `queued` queued and `failed` failed messages, in
        /// `strings`' words.
        public init(conversationID: ConversationID, queued: Int, failed: Int, strings: CourierStrings = .english) {
            self.conversationID = conversationID
            title = strings.deleteConversationTitle
            message = strings.deleteConversationMessage(queued, failed)
            buttons = [.delete, .cancel]
            actions = buttons.map(strings.label(for:))
        }
    }
}
