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

    @Test func thePreviousCalendarDayReadsYesterdayThenTheDate() {
        // 2026-10-20T10:00Z is 29 h before now, on the previous day.
        #expect(formatter.string(for: now.addingTimeInterval(-29 * 3_600), relativeTo: now) == "Yesterday")
        // 2026-10-19T12:00Z is two days back.
        #expect(formatter.string(for: now.addingTimeInterval(-51 * 3_600), relativeTo: now) == "Oct 19")
    }

    @Test func anotherYearShowsTheYear() {
        let lastYear = now.addingTimeInterval(-400 * 86_400)
        #expect(formatter.string(for: lastYear, relativeTo: now) == "Sep 16, 2025")
    }

    @Test func nextChangeIsWhenTheTextChanges() {
        let sent = now.addingTimeInterval(-90)
        let next = formatter.nextChange(for: sent, after: now)
        #expect(next == sent.addingTimeInterval(120))
        #expect(formatter.string(for: sent, relativeTo: next.addingTimeInterval(-0.001)) == "1m ago")
        #expect(formatter.string(for: sent, relativeTo: next) == "2m ago")
    }
}
