import CourierData
import CourierDomain
import CourierPresentation
import Foundation
import Testing

/// An app that gives the client its own event feed: what others do reaches its screens with no wiring of its own.
@MainActor
@Suite struct AdoptionFeedTests {
    let clock = ManualClock()
    let backend = DictionaryBackend()
    let feed = ListFeed()
    let connectivity = SwitchConnectivity(online: true)

    @Test func aMessageFromSomeoneElseShowsInTheOpenChatAndIsReadWithoutAnyWiring() async throws {
        // Given an app whose client has a feed, with Ana's chat open
        let folder = try ScratchDirectory()
        let client = try CourierClient(
            directory: folder.url.appendingPathComponent("courier"), currentUser: "me", messages: backend,
            conversations: backend, users: backend, connectivity: connectivity, clock: clock, ids: .random,
            feed: feed)
        let banner = ConnectivityBannerViewModel(session: client)
        let chat = ChatViewModel(session: client, conversationID: "c1", title: "Ana", banner: banner)
        chat.start()
        try chat.send(text: "are you there?")
        await client.idle()
        _ = await clock.run(until: { !chat.hasPendingWork })

        // When Ana answers from her device (her backend stored it and put it in my feed) and a moment passes
        let answer = Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: "c1", senderID: "ana", text: "yes!",
            timestamp: clock.now.addingTimeInterval(1), status: .sent)
        feed.publish(.message(answer))
        await clock.advance(by: .seconds(2))
        await client.idle()

        // Then her answer is the chat's last row, and my device told the backend it received and read it
        #expect(chat.state.messages.map(\.text) == ["are you there?", "yes!"])
        #expect(chat.state.messages.last?.isOutgoing == false)
        #expect(feed.marks.contains(Receipt(conversationID: "c1", userID: "me", kind: .read, upTo: answer.cursor)))
        #expect(client.sync.isLive)
        client.close()
    }
}
