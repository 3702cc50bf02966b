import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Presence

    /// How often the header's status is asked again while the chat is shown in the foreground: a status is never
    /// older than this (the user cache keeps a presence 30 s too).
    public static let presenceInterval: Duration = .seconds(30)

    /// Shows `user`'s status under the title ("Online", "Last seen 5m ago"), asked of `directory` now and every
    /// `presenceInterval` while the app is in the foreground; the background stops it, the return asks at once.
    public func showPresence(of user: UserID, from directory: any UserDirectory) {
        presenceSource = (user, directory)
        refreshPresence()
    }

    /// Asks for the status now, then again after `presenceInterval` (in the foreground only).
    func refreshPresence() {
        presenceTimer.cancel()
        guard isInForeground, let (user, directory) = presenceSource else { return }
        tasks.run { [weak self] in
            let presence = await directory.presence([user])[user]
            self?.presenceArrived(presence)
        }
    }

    private func presenceArrived(_ presence: Presence?) {
        let text = presence.map { Self.presenceText($0, now: clock.now, formatter: formatter, strings: strings) }
        store.update { $0.presence = text }
        guard isInForeground else { return }
        presenceTimer.schedule(after: Self.presenceInterval, coalescing: true) { [weak self] in
            self?.refreshPresence()
        }
    }

    /// "Online"; offline, "Last seen " and when ("just now", "5m ago", "yesterday", "Oct 19"), or "Offline" when the
    /// backend never saw them — in `strings`' words, which word the rounded time (`RelativeTime`), never its text.
    public static func presenceText(
        _ presence: Presence, now: Date, formatter: RelativeTimeFormatter, strings: CourierStrings = .english
    ) -> String {
        if presence.isOnline { return strings.presenceOnline }
        guard let seen = presence.lastSeen else { return strings.presenceOffline }
        return strings.lastSeen(formatter.relativeTime(for: seen, relativeTo: now))
    }
}
