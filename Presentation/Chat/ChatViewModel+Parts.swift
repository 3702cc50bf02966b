import CourierDomain

extension ChatViewModel {
    // MARK: - Parts

    /// What a chat is made with and works through, none of it replaced while it lives: the outbox, the repository,
    /// the sync and the banner it follows, the clock, the formatter and the strings it draws with, its logger, and
    /// the tracker and timers its work runs on.
    struct Parts {
        let outbox: any MessageOutbox
        let repository: any MessageRepository
        let sync: any LiveSync
        let banner: ConnectivityBannerViewModel
        let clock: any Clock
        let formatter: RelativeTimeFormatter
        let strings: CourierStrings
        let logger: Logger
        let tasks: TaskTracker
        /// Redraws the rows when a time text changes, in the foreground.
        let refreshTimer: ClockTimer
        /// Asks for the other person's status every `presenceInterval` while shown in the foreground.
        let presenceTimer: ClockTimer
    }

    var outbox: any MessageOutbox { parts.outbox }
    var repository: any MessageRepository { parts.repository }
    var sync: any LiveSync { parts.sync }
    var banner: ConnectivityBannerViewModel { parts.banner }
    var clock: any Clock { parts.clock }
    var formatter: RelativeTimeFormatter { parts.formatter }
    var strings: CourierStrings { parts.strings }
    var logger: Logger { parts.logger }
    var tasks: TaskTracker { parts.tasks }
    var refreshTimer: ClockTimer { parts.refreshTimer }
    var presenceTimer: ClockTimer { parts.presenceTimer }
}
