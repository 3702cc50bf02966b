import CourierDomain
import Foundation

/// Formats a past instant relative to now, as the chat screens show it: "Now", "5m ago", "3h ago", "Yesterday",
/// "Oct 19" — the day alone, whatever the year, as the product's specification fixes it. Foundation on Linux has no
/// `RelativeDateTimeFormatter`, so the rules are written out here: `relativeTime(for:relativeTo:)` rounds, and the
/// strings table (`CourierStrings.relativeTime`) puts the result into words.
public struct RelativeTimeFormatter: Sendable {
    /// The zone the day is read in; nil: UTC, read without Foundation's time zones.
    private let timeZone: TimeZone?
    /// The table whose words `string(for:relativeTo:)` uses.
    public private(set) var strings: CourierStrings

    /// Creates a formatter that reads the day of the month in `timeZone` (UTC when nil, the default, so scripts
    /// replay anywhere) and words it with `strings`. The day is worked out from the zone's offset at the instant
    /// (`CivilTime`), never by Foundation's `Calendar`, which loads ICU's calendar and time zone data: megabytes an
    /// app extension does not have to spare.
    public init(timeZone: TimeZone? = nil, strings: CourierStrings = .english) {
        self.timeZone = timeZone
        self.strings = strings
    }

    /// The same formatter, wording its times with `strings`.
    public func using(_ strings: CourierStrings) -> RelativeTimeFormatter {
        var formatter = self
        formatter.strings = strings
        return formatter
    }

    /// The text for `date` seen at `now`, by elapsed time:
    /// - under a minute (or in the future, from clock skew): "Now";
    /// - under an hour: "Nm ago"; under a day: "Nh ago"; under two days: "Yesterday";
    /// - otherwise the day, "MMM d": "Oct 19" (a 40-hour-old message on Jan 1 reads "Yesterday", a three-day-old one
    ///   "Dec 29" — never with a year).
    public func string(for date: Date, relativeTo now: Date) -> String {
        strings.relativeTime(relativeTime(for: date, relativeTo: now))
    }

    /// How long before `now` `date` was, rounded as `string(for:relativeTo:)` says it.
    public func relativeTime(for date: Date, relativeTo now: Date) -> RelativeTime {
        let elapsed = now.timeIntervalSince(date)
        if elapsed < 60 { return .now }
        if elapsed < 3_600 { return .minutes(Int(elapsed / 60)) }
        if elapsed < 86_400 { return .hours(Int(elapsed / 3_600)) }
        if elapsed < 172_800 { return .yesterday }
        let parts = CivilTime(date, offset: timeZone?.secondsFromGMT(for: date) ?? 0)
        return .day(month: parts?.month ?? 1, day: parts?.day ?? 1)
    }

    /// The next instant after `now` at which `string(for: date, relativeTo:)` may change, so a timer can sleep
    /// until then instead of polling.
    public func nextChange(for date: Date, after now: Date) -> Date {
        let elapsed = now.timeIntervalSince(date)
        if elapsed < 0 { return date.addingTimeInterval(60) }
        if elapsed < 3_600 { return date.addingTimeInterval((floor(elapsed / 60) + 1) * 60) }
        if elapsed < 86_400 { return date.addingTimeInterval((floor(elapsed / 3_600) + 1) * 3_600) }
        if elapsed < 172_800 { return date.addingTimeInterval(172_800) }
        // A date never reads differently again; a day from now keeps timers finite.
        return now.addingTimeInterval(86_400)
    }
}
