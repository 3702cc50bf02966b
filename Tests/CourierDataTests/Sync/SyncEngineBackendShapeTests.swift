import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// What a backend Courier did not write does to the feed, and what the device makes of it: a feed that goes back
/// without a word (a restored backend), conversations it cut short, tokens with no order.
@MainActor
@Suite struct SyncEngineBackendShapeTests {
    @Test func aFeedThatWentBackIsNoticedAndTheDeviceStartsOverInsteadOfMissingWhatComesNext() async throws {
        // Given a client that applied three of Ben's messages
        let fixture = SyncFixture()
        try await fixture.open()
        for (index, id) in ["a", "b", "c"].enumerated() {
            fixture.feed.push(.message(fixture.message(id, at: Double(index + 1))))
        }
        await fixture.settle()
        #expect(try fixture.engine.cursor == FeedPosition(3))

        // When the backend loses the last two and answers the cursor from its (earlier) end
        fixture.feed.lose(keepingFirst: 1)
        await fixture.clock.advance(by: SyncSettings().liveWait)
        await fixture.settle()

        // Then the device starts over once, from a snapshot, and what comes next at the reused positions arrives
        #expect(try fixture.engine.resets == 1)
        #expect(fixture.feed.snapshots == 1)
        #expect(try fixture.engine.cursor == FeedPosition(1))
        fixture.feed.push(.message(fixture.message("d", at: 4)))
        await fixture.settle()
        #expect(fixture.arrived.contains("d"))
        fixture.close()
    }

    @Test func aConversationCutShortIsForgottenFromTheCacheAndAnOpenOneStartsOver() async throws {
        // Given a client holding Ana's and Ben's messages, with Ben's chat open
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.feed.push(.message(fixture.message("a1", from: "ana", in: "c1")))
        fixture.feed.push(.message(fixture.message("b1", at: 2)))
        await fixture.settle()
        #expect(client.messageCache.messages(in: "c1").map(\.id) == ["a1"])

        // When a batch says the backend cut Ana's conversation short
        fixture.feed.gaps = ["c1"]
        fixture.feed.push(.message(fixture.message("a9", from: "ana", in: "c1", at: 9)))
        await fixture.settle()

        // Then what the cache held of it may have a hole, so it is forgotten (its next page comes from the
        // backend); Ben's is untouched, and nothing started over
        #expect(client.messageCache.messages(in: "c1").isEmpty)
        #expect(client.messageCache.messages(in: "c2").map(\.id) == ["b1"])
        #expect(try fixture.engine.resets == 0)

        // And when the cut conversation is the open one, the device starts over so the screen merges a whole page
        let watching = try fixture.engine.watch("c2")
        fixture.feed.gaps = ["c2"]
        fixture.feed.push(.message(fixture.message("b9", at: 10)))
        await fixture.settle()
        #expect(try fixture.engine.resets == 1)
        #expect(fixture.feed.snapshots == 1)
        watching.cancel()
        fixture.close()
    }
}
