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
        /// What went wrong with the last load, as the user reads it; nil when it went well.
        public var error: String?

        /// Creates a state.
        public init(
            items: [ConversationsListItem] = [], hasMore: Bool = false, isLoading: Bool = false, error: String? = nil
        ) {
            self.items = items
            self.hasMore = hasMore
            self.isLoading = isLoading
            self.error = error
        }
    }
}
