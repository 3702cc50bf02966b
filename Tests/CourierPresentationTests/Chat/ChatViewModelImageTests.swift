import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// Image messages on screen: the chat's row and the list's row say it is an image and which thumbnail to draw.
@MainActor
@Suite struct ChatViewModelImageTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)
    let photo = MediaAttachment(url: "https://img/full.jpg", thumbnailURL: "https://img/thumb.jpg")

    @Test func anImageSentOfflineShowsItsThumbnailAndCaptionQueued() async throws {
        // Given an open, empty chat offline
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When the user sends a captioned image, then one without a thumbnail or caption
        let first = try model.send(image: photo, caption: "beach")
        let second = try model.send(image: MediaAttachment(url: "https://img/2.jpg"))

        // Then each shows at once, queued and counted, in one state: the thumbnail when there is one, the full-size
        // image only when not
        let beach = image(first, "beach", "https://img/thumb.jpg")
        let bare = image(second, "", "https://img/2.jpg")
        #expect(
            recorder.states == [
                chatState([], online: false, waiting: 0),
                chatState([beach], online: false, waiting: 1),
                chatState([beach, bare], online: false, waiting: 2),
            ])
        #expect(model.state.messages.map(\.isImage) == [true, true])
        #expect(outbox.pending.map(\.media) == [photo, MediaAttachment(url: "https://img/2.jpg")])
    }

    @Test func anImageWithoutAURLIsRefusedAndChangesNothing() async throws {
        let model = await openChat()
        let recorder = StateRecorder(model)

        #expect(throws: InputError.invalidImage("the image has no URL")) {
            try model.send(image: MediaAttachment(url: " "), caption: "x")
        }

        #expect(recorder.states == [chatState([], online: false, waiting: 0)])
    }

    @Test func theListPreviewsAnImageInWordsWithItsThumbnailNeverItsURL() async throws {
        // Given the list of one conversation whose last message is text
        let repository = FakeConversationRepository(
            [
                Conversation(
                    id: "c1", participantIDs: ["me", "ana"],
                    lastMessage: ConversationsListFixture.message("m0", in: "c1", text: "hi", at: clock.now),
                    lastActivity: clock.now)
            ], clock: clock, latency: .zero)
        let list = ConversationsListViewModel(
            currentUser: "me", conversations: repository, users: FakeUserDirectory([]), clock: clock,
            outbox: outbox)
        list.load()
        await clock.idle()
        let recorder = StateRecorder(list)

        // When an image without a caption is composed there, then one with a caption
        await clock.advance(by: .seconds(1))
        try outbox.compose(text: "", media: photo, in: "c1")
        try outbox.compose(text: "look", media: MediaAttachment(url: "https://img/only-full.jpg"), in: "c1")

        // Then the row says "Photo" and draws the thumbnail, then the caption with the full-size image (no thumbnail)
        let row = { (preview: String, image: String?) in
            ConversationsListItem(
                id: "c1", title: "ana", preview: preview, timestamp: "Now", unreadCount: 0, previewImageURL: image)
        }
        #expect(
            recorder.states.map(\.items) == [
                [row("hi", nil)],
                [row("Photo", "https://img/thumb.jpg")],
                [row("look", "https://img/only-full.jpg")],
            ])
    }

    private func image(_ id: MessageID, _ caption: String, _ url: String) -> MessageRow {
        var row = mine(id, caption, .queued)
        row.imageURL = url
        return row
    }
}
