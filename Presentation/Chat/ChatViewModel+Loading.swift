import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Loading

    func loadPage(before cursor: MessageCursor?) {
        let repository = repository
        let conversationID = conversationID
        let limit = pageSize
        let renewals = sync.signInRenewals
        tasks.run { [weak self] in
            do {
                let page = try await repository.messages(in: conversationID, before: cursor, limit: limit)
                self?.pageLoaded(page, newest: cursor == nil)
            } catch {
                guard let self else { return }
                // Refused for a sign-in renewed since the request left: asked again at once, as nothing else (no
                // `.live(true)` when the feed listened all along) would ask it.
                if error as? DeliveryError == .unauthorized, sync.signInRenewals != renewals {
                    loadPage(before: cursor)
                } else {
                    loadFailed(error)
                }
            }
        }
    }

    private func pageLoaded(_ page: MessagePage, newest: Bool) {
        if shown.olderCursor == nil { newestPage.firstPageLoaded() }
        if newest {
            // Answered by the device for a backend out of reach: it may lack what the backend got meanwhile (the
            // feed brings only what comes after its cursor), so the newest page is asked for again once the feed is
            // live, or the device is back online.
            newestPage.newestLoaded(cached: page.isCached)
        }
        shown.timeline.merge(page: page.messages)
        // The backend's token for the page before, when it gave one, goes back with the next request as it came.
        if let first = page.messages.first { shown.olderCursor = page.olderCursor ?? first.cursor }
        shown.serverHasMore = page.hasMore && shown.olderCursor != nil
        // The page may land in the window or above it: the window keeps its goal, counted from the bottom.
        shown.start = max(
            lowestShowable, shown.timeline.messages.count - max(shown.rowsGoal, store.state.messages.count))
        render {
            $0.isLoading = false
            $0.isLoadingOlder = false
            // A page's failure text ends when a page loads.
            if $0.error == strings.chatLoadMoreFailed || $0.error == strings.chatLoadFailed { $0.error = nil }
        }
        markSeen()
    }

    private func loadFailed(_ error: any Error) {
        let delivery = error as? DeliveryError
        let cancelled = error is CancellationError || delivery == .cancelled
        logger.log(.warning, "loading \(conversationID) failed: \(error)")
        let newest = shown.olderCursor == nil
        // Offline with nothing cached: not a send failure — say the chat loads once back online, and load it then.
        // A backend that refuses or answers nothing is unreachable alike (a frozen server, a captive portal).
        let unreachable = delivery?.isBackendUnreachable == true
        let offline = (delivery == .offline || unreachable) && newest
        if offline { newestPage.newestUnreachable() }
        // Set before the render, so that the state it draws already says more may come (the next `more` asks again).
        if newest, !cancelled { newestPage.newestFailed(showing: nil) }
        render {
            if offline {
                $0.error = unreachable ? strings.chatUnreachableLoad : strings.chatOfflineLoad
            } else if !cancelled {
                $0.error = Self.loadFailureText(for: delivery, newest: newest, in: strings)
            }
            $0.isLoading = false
            $0.isLoadingOlder = false
        }
        if newest, !cancelled { newestPage.newestFailed(showing: store.state.error) }
    }

    /// The feed is live again: a newest page that failed loads now (the connection's return alone does not bring
    /// back an expired sign-in).
    func feedLive() {
        guard newestPage.waitsForLiveFeed, !store.state.isLoading else { return }
        let failure = newestPage.feedLive()
        render {
            if let text = failure, $0.error == text { $0.error = nil }
            $0.isLoading = true
        }
        loadPage(before: nil)
    }

    /// What a queued message of this chat waits for now: a connection offline; online, the user (manual policy) or
    /// a moment (automatic).
    var queuedWait: MessageAlert.Wait { queuedWait(online: store.state.isOnline) }

    func queuedWait(online: Bool) -> MessageAlert.Wait {
        guard online else { return .connection }
        return outbox.policy == .manual ? .user : .policy
    }

    /// What an uncached chat opened offline says instead of its messages.
    public static let offlineLoadText = CourierStrings.english.chatOfflineLoad
    /// What an uncached chat opened while the backend cannot be reached says instead of its messages.
    public static let unreachableLoadText = CourierStrings.english.chatUnreachableLoad

    /// What a page that failed to load says: a load's words, never a send's ("Failed to load more messages" for an
    /// older page; the newest page says the chat could not load).
    static func loadFailureText(for error: DeliveryError?, newest: Bool, in strings: CourierStrings) -> String {
        switch error {
        case .unauthorized?: strings.deliveryError(.unauthorized)
        case .forbidden?: strings.chatLoadForbidden
        case .notFound?: strings.chatLoadNotFound
        default: newest ? strings.chatLoadFailed : strings.chatLoadMoreFailed
        }
    }
}
