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
    public struct DeleteAlert: Equatable, Sendable {
        /// The conversation it is about.
        public var conversationID: ConversationID
        /// Its title.
        public var title: String
        /// Its text.
        public var message: String
        /// Its buttons' labels, in order.
        public var actions: [String]

        /// The confirmation for `conversationID`, which holds `queued` queued and `failed` failed messages.
        public init(conversationID: ConversationID, queued: Int, failed: Int) {
            self.conversationID = conversationID
            title = "Delete Conversation"
            let count = { (number: Int, status: String) in "\(number) \(status) message\(number == 1 ? "" : "s")" }
            let parts = [(queued, "queued"), (failed, "failed")].filter { $0.0 > 0 }.map(count)
            message = parts.isEmpty
                ? "This conversation will be removed from your list."
                : "This conversation will be removed from your list, and its \(parts.joined(separator: " and ")) "
                    + "will be discarded."
            actions = ["Delete", "Cancel"]
        }
    }
}
