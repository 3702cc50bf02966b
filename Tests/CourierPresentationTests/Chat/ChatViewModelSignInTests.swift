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
        let repository = backend([hello], latency: .zero)
        repository.fail(with: .unauthorized)
        let sync = FakeLiveSync()
        let chat = openChat(repository, sync: sync)
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

    @Test("a newest page refused after a renewal it left before asks again at once, with no error shown")
    func aPageRefusedForTheOldSignInAsksAgain() async {
        // Given a chat whose newest page is on its way while sign-in has expired, and a feed that stays live
        let repository = backend([hello], latency: .seconds(1))
        repository.script = [.fail(.unauthorized), .answer]
        let sync = FakeLiveSync()
        let chat = openChat(repository, sync: sync)
        var errors: [String] = []
        let token = chat.observe { if let error = $0.error { errors.append(error) } }
        defer { token.cancel() }
        chat.start()
        _ = await clock.run(until: { repository.pageRequests.count == 1 })

        // When sign-in is renewed before the refusal comes back (no `.live(true)`: the feed never stopped)
        sync.signInRenewals += 1
        _ = await clock.run(until: { !chat.hasPendingWork })

        // Then the page is asked for again and loads, and the sign-in error never showed
        #expect(repository.pageRequests == [nil, nil])
        #expect(chat.state.messages.map(\.text) == ["Hello"])
        #expect(chat.state.error == nil)
        #expect(errors.isEmpty)
    }

    @Test("a newest page refused with no renewal since it left waits for the feed, showing the sign-in error")
    func aPageRefusedForTheCurrentSignInWaits() async {
        // Given a chat whose newest page is refused for the sign-in it was sent with
        let repository = backend([], latency: .seconds(1))
        repository.script = [.fail(.unauthorized)]
        let sync = FakeLiveSync()
        let chat = openChat(repository, sync: sync)

        // When it is answered
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })

        // Then it is not asked again until the feed is live: the user sees why
        #expect(repository.pageRequests == [nil])
        #expect(chat.state.error == DeliveryError.unauthorized.userMessage)
    }

    private var hello: Message {
        Message(id: "m1", conversationID: "c1", senderID: "ana", text: "Hello", timestamp: clock.now, status: .sent)
    }

    private func openChat(_ repository: FakeMessageRepository, sync: FakeLiveSync) -> ChatViewModel {
        ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox, repository: repository,
            banner: makeBanner(), clock: clock, sync: sync)
    }
}
