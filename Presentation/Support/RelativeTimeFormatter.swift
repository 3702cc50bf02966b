import Foundation

/// Formats a past instant relative to now, as the chat screens show it: "Now", "5m ago", "3h ago", "Yesterday",
/// "Oct 19" — the day alone, whatever the year, as the product's specification fixes it. Foundation on Linux has no
/// `RelativeDateTimeFormatter`, and the texts are fixed, so the rules are written out here.
public struct RelativeTimeFormatter: Sendable {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private let calendar: Calendar

    /// Creates a formatter that reads the day of the month in `timeZone` (UTC by default, so scripts replay
    /// anywhere).
    public init(timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The text for `date` seen at `now`, by elapsed time:
    /// - under a minute (or in the future, from clock skew): "Now";
    /// - under an hour: "Nm ago"; under a day: "Nh ago"; under two days: "Yesterday";
    /// - otherwise the day, "MMM d": "Oct 19" (a 40-hour-old message on Jan 1 reads "Yesterday", a three-day-old one
    ///   "Dec 29" — never with a year).
    public func string(for date: Date, relativeTo now: Date) -> String {
        let elapsed = now.timeIntervalSince(date)
        if elapsed < 60 { return "Now" }
        if elapsed < 3_600 { return "\(Int(elapsed / 60))m ago" }
        if elapsed < 86_400 { return "\(Int(elapsed / 3_600))h ago" }
        if elapsed < 172_800 { return "Yesterday" }
        let parts = calendar.dateComponents([.month, .day], from: date)
        let month = Self.months[((parts.month ?? 1) - 1) % 12]
        return "\(month) \(parts.day ?? 1)"
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
