import Foundation

/// Formats a past instant relative to now, as the chat screens show it: "Now", "5m ago", "3h ago", "Yesterday",
/// "Oct 19" (and "Oct 19, 2025" for another year). Foundation on Linux has no `RelativeDateTimeFormatter`, and the
/// seeds' texts are fixed, so the rules are written out here.
public struct RelativeTimeFormatter: Sendable {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private let calendar: Calendar

    /// Creates a formatter that reads calendar days in `timeZone` (UTC by default, so scripts replay anywhere).
    public init(timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The text for `date` seen at `now`:
    /// - under a minute ago (or in the future, from clock skew): "Now";
    /// - under an hour: "Nm ago"; under a day: "Nh ago";
    /// - on the previous calendar day: "Yesterday";
    /// - otherwise the day: "Oct 19", with the year when it is not this year.
    public func string(for date: Date, relativeTo now: Date) -> String {
        let elapsed = now.timeIntervalSince(date)
        if elapsed < 60 { return "Now" }
        if elapsed < 3_600 { return "\(Int(elapsed / 60))m ago" }
        if elapsed < 86_400 { return "\(Int(elapsed / 3_600))h ago" }
        let today = calendar.startOfDay(for: now)
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: today), date >= yesterday, date < today {
            return "Yesterday"
        }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let month = Self.months[((parts.month ?? 1) - 1) % 12]
        let day = parts.day ?? 1
        if parts.year == calendar.component(.year, from: now) { return "\(month) \(day)" }
        return "\(month) \(day), \(parts.year ?? 0)"
    }

    /// The next instant after `now` at which `string(for: date, relativeTo:)` may change, so a timer can sleep
    /// until then instead of polling.
    public func nextChange(for date: Date, after now: Date) -> Date {
        let elapsed = now.timeIntervalSince(date)
        if elapsed < 0 { return date.addingTimeInterval(60) }
        if elapsed < 3_600 { return date.addingTimeInterval((floor(elapsed / 60) + 1) * 60) }
        if elapsed < 86_400 { return date.addingTimeInterval((floor(elapsed / 3_600) + 1) * 3_600) }
        let today = calendar.startOfDay(for: now)
        return calendar.date(byAdding: .day, value: 1, to: today) ?? now.addingTimeInterval(86_400)
    }
}
