/// How long ago something happened, as the screens round it — before any language has put it into words. The
/// `RelativeTimeFormatter` reads it from two instants; the `CourierStrings` table words it ("Now", "5m ago"), so logic
/// that treats "just now" or "yesterday" specially asks this value, never the text (docs/design.md §5).
public enum RelativeTime: Equatable, Sendable {
    /// Under a minute ago (or in the future, from clock skew).
    case now
    /// A whole number of minutes ago, 1…59.
    case minutes(Int)
    /// A whole number of hours ago, 1…23.
    case hours(Int)
    /// One to two days ago.
    case yesterday
    /// Longer ago: the day alone, whatever the year (`month` 1…12, `day` 1…31).
    case day(month: Int, day: Int)
}
