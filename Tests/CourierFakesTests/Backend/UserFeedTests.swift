import CourierDomain
import Foundation
import Testing

@testable import CourierFakes

/// One user's bounded feed: positions that only grow, reads after a cursor, and what retention forgets.
@Suite("UserFeed")
struct UserFeedTests {
    private static let conversation = Conversation(
        id: "c1", participantIDs: ["me", "ana"], lastActivity: Date(timeIntervalSince1970: 1_000))

    /// A feed holding `count` events appended with `retention`.
    private func feed(appending count: Int, retention: Int = 100) -> UserFeed {
        var feed = UserFeed()
        for _ in 0..<count { _ = feed.append(.conversation(Self.conversation), retention: retention) }
        return feed
    }

    @Test("appended events get positions 1, 2, 3 … in order, and the end follows the newest")
    func positionsIncrease() {
        var feed = UserFeed()
        #expect(feed.end == 0)

        let positions = (0..<5).map { _ in feed.append(.conversation(Self.conversation), retention: 100).position }

        #expect(positions.map(\.number) == [1, 2, 3, 4, 5])
        #expect(feed.end == 5)
        #expect(feed.count == 5)
    }

    @Test("reading after a cursor gives the events above it, cut at the limit with hasMore, ending at the last one")
    func readAfterCursor() throws {
        let feed = feed(appending: 5)

        let first = try #require(feed.events(after: 1, limit: 2))
        let firstEnd = try #require(first.end.number)
        let rest = try #require(feed.events(after: firstEnd, limit: 10))

        #expect(first.events.map(\.position.number) == [2, 3])
        #expect(first.end == FeedPosition(3))
        #expect(first.hasMore)
        #expect(rest.events.map(\.position.number) == [4, 5])
        #expect(rest.end == FeedPosition(5))
        #expect(!rest.hasMore)
    }

    @Test("a cursor at the end reads an empty batch that keeps the cursor")
    func cursorAtTheEnd() throws {
        let empty = try #require(UserFeed().events(after: 0, limit: 10))
        let caughtUp = try #require(feed(appending: 3).events(after: 3, limit: 10))

        #expect(empty == FeedBatch(events: [], end: .start, hasMore: false))
        #expect(caughtUp == FeedBatch(events: [], end: FeedPosition(3), hasMore: false))
    }

    @Test("retention forgets the oldest: a cursor behind what is kept expires, one within it is served")
    func retentionForgetsTheOldest() throws {
        // Given a feed that keeps 3 events and got 5
        let feed = feed(appending: 5, retention: 3)

        // Then events 1 and 2 are gone: cursors 0 and 1 expire, cursor 2 reads 3…5
        #expect(feed.count == 3)
        #expect(feed.events(after: 0, limit: 10) == nil)
        #expect(feed.events(after: 1, limit: 10) == nil)
        #expect(try #require(feed.events(after: 2, limit: 10)).events.map(\.position.number) == [3, 4, 5])
        #expect(try #require(feed.events(after: 4, limit: 10)).events.map(\.position.number) == [5])
    }

    @Test("over 1,000 appends with retention 10, every cursor from 990 reads exactly the events after it")
    func retentionAcrossManyAppends() throws {
        let feed = feed(appending: 1_000, retention: 10)

        #expect(feed.end == 1_000)
        #expect(feed.count == 10)
        #expect(feed.events(after: 989, limit: 100) == nil)
        for cursor in UInt64(990)...1_000 {
            let batch = try #require(feed.events(after: cursor, limit: 100), "cursor \(cursor)")
            #expect(batch.events.map(\.position.number) == Array((cursor + 1)..<1_001), "cursor \(cursor)")
            #expect(!batch.hasMore)
        }
    }

    @Test("every position is read once and in order when a reader keeps up, whatever the retention")
    func keepingUpReadsEverything() throws {
        for retention in [1, 2, 3, 7] {
            var feed = UserFeed()
            var cursor: UInt64 = 0
            var read: [UInt64] = []
            for _ in 0..<50 {
                _ = feed.append(.conversation(Self.conversation), retention: retention)
                let batch = try #require(feed.events(after: cursor, limit: 1), "retention \(retention)")
                read += batch.events.compactMap(\.position.number)
                cursor = try #require(batch.end.number)
            }
            #expect(read == Array(1...50), "retention \(retention)")
        }
    }

    @Test("trim forgets every event; positions go on from the end")
    func trim() throws {
        var feed = feed(appending: 4)

        feed.trim()

        #expect(feed.count == 0)
        #expect(feed.events(after: 3, limit: 10) == nil)
        #expect(try #require(feed.events(after: 4, limit: 10)).events.isEmpty)
        #expect(feed.append(.conversation(Self.conversation), retention: 100).position == FeedPosition(5))
        #expect(try #require(feed.events(after: 4, limit: 10)).events.map(\.position.number) == [5])
    }

    @Test("a cursor beyond the newest event expires (a position this feed never gave out)")
    func cursorBeyondTheEnd() {
        let feed = feed(appending: 3)

        #expect(feed.events(after: 4, limit: 10) == nil)
        #expect(UserFeed().events(after: 1, limit: 10) == nil)
        #expect(feed.events(after: UInt64.max, limit: 10) == nil)
    }
}
