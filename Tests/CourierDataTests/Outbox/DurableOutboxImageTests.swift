import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// An image message goes through the outbox as text does: composed durably (its URLs in the outbox record), kept
/// across a relaunch, sent with its attachment; only its caption may be empty.
@MainActor
@Suite(.removesTemporaryDirectories) struct DurableOutboxImageTests {
    let clock = ManualClock()
    let connectivity = ManualConnectivity(online: false)
    let repository: FakeMessageRepository
    let directory: TemporaryDirectory
    let photo = MediaAttachment(url: "https://img/full.jpg", thumbnailURL: "https://img/thumb.jpg")

    init() throws {
        directory = try TemporaryDirectory()
        repository = DurableOutboxTests.backend(clock: clock)
    }

    func makeOutbox(_ store: any OutboxStore) -> DurableOutbox {
        DurableOutbox(
            store: store, repository: repository, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me")
    }

    @Test func anImageComposedOfflineIsQueuedDurablyWithItsURLsAndSurvivesARelaunch() async throws {
        // Given an outbox on disk, offline
        let store = try FileOutboxStore(directory: directory.url)
        let outbox = makeOutbox(store)

        // When an image with a caption padded by spaces and one without a caption are composed
        let captioned = try outbox.compose(text: "  beach day ", media: photo, in: "c2")
        let bare = try outbox.compose(
            text: "", media: MediaAttachment(url: " https://img/2.jpg ", thumbnailURL: "  "), in: "c2")

        // Then both are queued with their attachment; the caption is trimmed, a blank thumbnail counts as none
        #expect(captioned.status == .queued && captioned.text == "beach day" && captioned.media == photo)
        #expect(bare.text == "" && bare.media == MediaAttachment(url: "https://img/2.jpg"))

        // And a relaunch reads them back whole from the outbox record
        outbox.stop()
        store.close()
        let reopened = try FileOutboxStore(directory: directory.url)
        defer { reopened.close() }
        #expect(reopened.all().map(\.media) == [photo, MediaAttachment(url: "https://img/2.jpg")])
        #expect(reopened.all().map(\.text) == ["beach day", ""])

        // And once online they reach the backend with their attachment, in compose order
        let relaunched = makeOutbox(reopened)
        connectivity.set(online: true)
        clock.task { await relaunched.sendAll() }
        _ = await clock.run(until: { !relaunched.isBusy && reopened.count == 0 })
        let sent = repository.stored.filter { $0.conversationID == "c2" }.map(\.media)
        #expect(sent == [photo, MediaAttachment(url: "https://img/2.jpg")])
    }

    @Test func anImageNeedsAURLAndTextStillNeedsText() throws {
        let store = InMemoryOutboxStore()
        let outbox = makeOutbox(store)

        #expect(throws: InputError.invalidImage("the image has no URL")) {
            try outbox.compose(text: "caption", media: MediaAttachment(url: "  ", thumbnailURL: "t"), in: "c2")
        }
        #expect(throws: InputError.emptyText) { try outbox.compose(text: "   ", media: nil, in: "c2") }
        let long = String(repeating: "x", count: 2_049)
        #expect(throws: InputError.invalidImage("a URL is longer than 2048 bytes")) {
            try outbox.compose(text: "", media: MediaAttachment(url: long), in: "c2")
        }
        #expect(store.count == 0)
    }

    @Test func editingAnImagesCaptionMayEmptyItButNotATextsText() throws {
        let outbox = makeOutbox(InMemoryOutboxStore())
        let image = try outbox.compose(text: "caption", media: photo, in: "c2")
        let text = try outbox.compose(text: "words", in: "c2")

        let edited = try outbox.edit(image.id, text: "  ")

        #expect(edited.text == "" && edited.media == photo)
        #expect(throws: InputError.emptyText) { try outbox.edit(text.id, text: " ") }
    }
}
