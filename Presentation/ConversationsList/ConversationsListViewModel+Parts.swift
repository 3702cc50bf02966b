import CourierDomain

extension ConversationsListViewModel {
    // MARK: - Parts

    /// What a list is made with and works through, none of it replaced while it lives: where its pages and names
    /// come from, the sync and the outbox it follows, what deletes a conversation, the clock, the formatter and the
    /// strings it draws with, and the tracker and timer its work runs on.
    struct Parts {
        let repository: any ConversationRepository
        let directory: any UserDirectory
        let sync: any LiveSync
        let outbox: (any MessageOutbox)?
        let deleter: (any ConversationDeleting)?
        let clock: any Clock
        let formatter: RelativeTimeFormatter
        let strings: CourierStrings
        let tasks: TaskTracker
        /// Reads the rows' relative times again every `refreshInterval` in the foreground.
        let refreshTimer: ClockTimer
    }

    var repository: any ConversationRepository { parts.repository }
    var directory: any UserDirectory { parts.directory }
    var sync: any LiveSync { parts.sync }
    var outbox: (any MessageOutbox)? { parts.outbox }
    var deleter: (any ConversationDeleting)? { parts.deleter }
    var clock: any Clock { parts.clock }
    var formatter: RelativeTimeFormatter { parts.formatter }
    var strings: CourierStrings { parts.strings }
    var tasks: TaskTracker { parts.tasks }
    var refreshTimer: ClockTimer { parts.refreshTimer }
}
