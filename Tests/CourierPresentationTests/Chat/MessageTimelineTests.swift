import CourierDomain
import Foundation
import Testing

@testable import CourierPresentation

/// The chat's timeline keeps its id index right through every kind of change.
@Suite struct MessageTimelineTests {
    private let start = Date(timeIntervalSince1970: 1_767_258_000)

    private func message(_ id: String, at seconds: TimeInterval, status: MessageStatus = .sent) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: "me", text: id,
            timestamp: start.addingTimeInterval(seconds), status: status)
    }

    /// Every message is found at the position it has.
    private func expectIndexed(_ timeline: MessageTimeline) {
        for (position, message) in timeline.messages.enumerated() {
            #expect(timeline.index(of: message.id) == position, "\(message.id)")
        }
    }

    @Test func olderPagesInFrontNewMessagesAtTheEndAndRemovalsKeepEveryPosition() {
        // Given pending messages, then two older pages from the backend
        var timeline = MessageTimeline()
        for index in 0..<5 { timeline.upsert(message("p\(index)", at: 1_000 + Double(index), status: .queued)) }
        timeline.merge(page: (0..<3).map { message("b\($0)", at: 500 + Double($0)) })
        timeline.merge(page: (0..<3).map { message("a\($0)", at: 100 + Double($0)) })

        // When a message is composed, one in the middle changes, one is removed and one arrives out of order
        timeline.upsert(message("p5", at: 1_005, status: .queued))
        timeline.upsert(message("p2", at: 1_002, status: .sent))
        timeline.remove("b1")
        timeline.upsert(message("late", at: 700))

        // Then the order is compose order and every id points at its row
        #expect(
            timeline.messages.map(\.id.rawValue) == [
                "a0", "a1", "a2", "b0", "b2", "late", "p0", "p1", "p2", "p3", "p4", "p5",
            ])
        #expect(timeline.message("p2")?.status == .sent)
        #expect(timeline.index(of: "b1") == nil)
        expectIndexed(timeline)
    }

    @Test func aFirstPageOutOfOrderOrWithARepeatedIdIsSortedOnceAndIndexed() {
        // Given an empty timeline (a chat opening)
        var timeline = MessageTimeline()

        // When its first page comes out of order and names one id twice, then a newer page and an older one come
        timeline.merge(page: [message("m2", at: 2), message("m0", at: 0), message("m1", at: 1), message("m0", at: 9)])
        let afterFirst = timeline.revision
        timeline.merge(page: [message("m3", at: 3), message("m4", at: 4)])
        timeline.merge(page: [message("a0", at: -2), message("a1", at: -1)])

        // Then each id shows once, at its compose position (the first of a repeated id wins), and is found there
        #expect(timeline.messages.map(\.id.rawValue) == ["a0", "a1", "m0", "m1", "m2", "m3", "m4"])
        #expect(timeline.message("m0")?.timestamp == start)
        expectIndexed(timeline)
        #expect(timeline.revision > afterFirst)
    }

    @Test func aPageOfKnownMessagesChangesTheRevisionOnlyWhenAMessageMovesOn() {
        // Given a timeline holding a queued message
        var timeline = MessageTimeline()
        timeline.merge(page: [message("m0", at: 0, status: .queued), message("m1", at: 1)])
        let before = timeline.revision

        // When the same page comes again, then one where the message has been sent
        timeline.merge(page: [message("m0", at: 0, status: .queued), message("m1", at: 1)])
        let unchanged = timeline.revision
        timeline.merge(page: [message("m0", at: 0, status: .sent)])

        // Then only the second changed anything
        #expect(unchanged == before)
        #expect(timeline.revision > unchanged)
        #expect(timeline.message("m0")?.status == .sent)
        expectIndexed(timeline)
    }
}
