import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Connectivity

    /// The banner changed, after `event` of the outbox when there was one: the event's change to the rows and the
    /// banner's — online, banner, toast, the load coming online lets start — show together, in one state.
    func bannerChanged(_ shared: ConnectivityBannerViewModel.State, after event: OutboxEvent?) {
        store.batch {
            if let event { outboxChanged(event) }
            mirror(shared)
        }
    }

    /// What the chat says under `banner` when its count covers other chats than this one, which holds `here`
    /// pending messages.
    static func elsewhereText(of banner: ConnectivityBannerViewModel.Banner, here: Int, strings: CourierStrings)
        -> String?
    {
        let elsewhere = banner.visible ? banner.queuedCount - here : 0
        return elsewhere > 0 ? strings.queuedElsewhere(elsewhere, banner.queuedCount) : nil
    }

    /// Takes the banner's state in; coming online loads the newest page that waited for the connection.
    private func mirror(_ shared: ConnectivityBannerViewModel.State) {
        let wait = queuedWait(online: shared.isOnline)
        let elsewhereText = Self.elsewhereText(
            of: shared.banner, here: outbox.pendingCount(in: conversationID), strings: strings)
        let apply: (inout State) -> Void = {
            $0.isOnline = shared.isOnline
            $0.banner = shared.banner
            $0.bannerElsewhereText = elsewhereText
            $0.toast = shared.toast
            $0.connected = shared.connected
            $0.alert = $0.alert?.waiting(for: wait)
        }
        guard shared.isOnline, !store.state.isOnline, newestPage.waitsForConnection, !store.state.isLoading else {
            store.update(apply)
            return
        }
        newestPage.retrying()
        render {
            apply(&$0)
            if $0.error == strings.chatOfflineLoad { $0.error = nil }
            $0.isLoading = true
        }
        loadPage(before: nil)
    }
}
