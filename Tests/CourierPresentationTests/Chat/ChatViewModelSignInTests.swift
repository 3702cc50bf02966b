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
        let backend = SignInBackend(history: [
            Message(
                id: "m1", conversationID: "c1", senderID: "ana", text: "Hello", timestamp: clock.now, status: .sent)
        ])
        let sync = ManualLiveSync()
        let chat = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox, repository: backend,
            banner: makeBanner(), clock: clock, sync: sync)
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        #expect(chat.state.error == DeliveryError.unauthorized.userMessage)
        #expect(chat.state.messages.isEmpty)

        // When sign-in is renewed and the feed goes live again (no connectivity change)
        backend.expired = false
        sync.announce(.live(true))
        _ = await clock.run(until: { !chat.hasPendingWork })

        // Then the page loads and the sign-in error is gone
        #expect(chat.state.messages.map(\.text) == ["Hello"])
        #expect(chat.state.error == nil)
        #expect(backend.requests == 2)
    }
}

/// One conversation's history behind a sign-in that may be expired.
private final class SignInBackend: MessageRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let history: [Message]
    private var isExpired = true
    private var requestCount = 0

    init(history: [Message]) { self.history = history }

    /// Whether every request is refused with `.unauthorized`.
    var expired: Bool {
        get { lock.withLock { isExpired } }
        set { lock.withLock { isExpired = newValue } }
    }

    /// Page requests served or refused.
    var requests: Int { lock.withLock { requestCount } }

    func send(_ message: Message) async throws -> Message {
        throw DeliveryError.validation(reason: "the chat sends through the outbox")
    }

    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    {
        let refused = lock.withLock {
            requestCount += 1
            return isExpired
        }
        if refused { throw DeliveryError.unauthorized }
        return MessagePage(messages: history.filter { $0.conversationID == conversation }, hasMore: false)
    }
}
