import CourierPresentation
import Foundation
import Testing

@Suite struct RelativeTimeFormatterTests {
    let formatter = RelativeTimeFormatter()
    // 2026-10-21T15:00:00Z, a Wednesday afternoon.
    let now = Date(timeIntervalSince1970: 1_792_594_800)

    @Test func recentTimesCountUpFromNow() {
        #expect(formatter.string(for: now, relativeTo: now) == "Now")
        #expect(formatter.string(for: now.addingTimeInterval(-59), relativeTo: now) == "Now")
        #expect(formatter.string(for: now.addingTimeInterval(-60), relativeTo: now) == "1m ago")
        #expect(formatter.string(for: now.addingTimeInterval(-5 * 60 - 30), relativeTo: now) == "5m ago")
        #expect(formatter.string(for: now.addingTimeInterval(-3 * 3_600), relativeTo: now) == "3h ago")
        #expect(formatter.string(for: now.addingTimeInterval(-23 * 3_600 - 59 * 60), relativeTo: now) == "23h ago")
    }

    @Test func aFutureInstantFromClockSkewReadsNow() {
        #expect(formatter.string(for: now.addingTimeInterval(120), relativeTo: now) == "Now")
    }

    @Test func underTwoDaysReadsYesterdayThenTheDate() {
        #expect(formatter.string(for: now.addingTimeInterval(-24 * 3_600), relativeTo: now) == "Yesterday")
        #expect(formatter.string(for: now.addingTimeInterval(-40 * 3_600), relativeTo: now) == "Yesterday")
        #expect(formatter.string(for: now.addingTimeInterval(-47 * 3_600 - 3_599), relativeTo: now) == "Yesterday")
        // 2026-10-19T15:00Z is exactly two days back.
        #expect(formatter.string(for: now.addingTimeInterval(-48 * 3_600), relativeTo: now) == "Oct 19")
    }

    @Test func anotherYearShowsTheDayAlone() {
        let lastYear = now.addingTimeInterval(-400 * 86_400)
        #expect(formatter.string(for: lastYear, relativeTo: now) == "Sep 16")
        // New Year's Day: a 40-hour-old message is yesterday's, not "Dec 30, 2025".
        let newYear = Date(timeIntervalSince1970: 1_767_283_200)  // 2026-01-01T16:00Z
        #expect(formatter.string(for: newYear.addingTimeInterval(-40 * 3_600), relativeTo: newYear) == "Yesterday")
        #expect(formatter.string(for: newYear.addingTimeInterval(-72 * 3_600), relativeTo: newYear) == "Dec 29")
    }

    @Test func nextChangeIsWhenTheTextChanges() {
        let sent = now.addingTimeInterval(-90)
        let next = formatter.nextChange(for: sent, after: now)
        #expect(next == sent.addingTimeInterval(120))
        #expect(formatter.string(for: sent, relativeTo: next.addingTimeInterval(-0.001)) == "1m ago")
        #expect(formatter.string(for: sent, relativeTo: next) == "2m ago")
    }
}
