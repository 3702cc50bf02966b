import CourierDomain

extension OfflineQueueViewModel {
    /// What the Offline Queue screen shows.
    public struct State: Equatable, Sendable {
        /// "Offline Queue (3)".
        public var title: String
        /// The pending messages, in compose order.
        public var rows: [OfflineQueueRow]
        /// Shown instead of the list when nothing is pending.
        public var emptyState: EmptyState?

        /// Creates a state.
        public init(title: String, rows: [OfflineQueueRow], emptyState: EmptyState?) {
            self.title = title
            self.rows = rows
            self.emptyState = emptyState
        }
    }

    /// The empty list's title and explanation.
    public struct EmptyState: Equatable, Sendable {
        /// "No Queued Messages".
        public var title: String
        /// "Messages you compose offline will appear here".
        public var message: String

        /// Creates an empty state.
        public init(title: String, message: String) {
            self.title = title
            self.message = message
        }

        /// The one empty state this screen shows.
        public static let standard = EmptyState(
            title: "No Queued Messages", message: "Messages you compose offline will appear here")
    }
}
