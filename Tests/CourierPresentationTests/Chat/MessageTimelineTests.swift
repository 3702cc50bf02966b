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
        #expect(timeline.messages.map(\.id.rawValue) == [
            "a0", "a1", "a2", "b0", "b2", "late", "p0", "p1", "p2", "p3", "p4", "p5",
        ])
        #expect(timeline.message("p2")?.status == .sent)
        #expect(timeline.index(of: "b1") == nil)
        expectIndexed(timeline)
    }
}
