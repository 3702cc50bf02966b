import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// A chat opened while sign-in was expired loads once it is renewed (found by the simulation's convergence check:
/// the chat showed only what the feed announced afterwards, for good).
@MainActor
@Suite struct ChatViewModelSignInTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test("a newest page refused for sign-in loads once the feed is live again, and the error goes")
    func aRefusedPageLoadsWhenTheFeedIsLive() async {
        // Given a chat opened while the backend refuses the expired sign-in
        let repository = backend(
            [
                Message(
                    id: "m1", conversationID: "c1", senderID: "ana", text: "Hello", timestamp: clock.now, status: .sent)
            ],
            latency: .zero)
        repository.fail(with: .unauthorized)
        let sync = FakeLiveSync()
        let chat = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox, repository: repository,
            banner: makeBanner(), clock: clock, sync: sync)
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        #expect(chat.state.error == DeliveryError.unauthorized.userMessage)
        #expect(chat.state.messages.isEmpty)

        // When sign-in is renewed and the feed goes live again (no connectivity change)
        repository.fail(with: nil)
        sync.announce(.live(true))
        _ = await clock.run(until: { !chat.hasPendingWork })

        // Then the page loads and the sign-in error is gone
        #expect(chat.state.messages.map(\.text) == ["Hello"])
        #expect(chat.state.error == nil)
        #expect(repository.pageRequests == [nil, nil])
    }
}
