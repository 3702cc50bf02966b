#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An instant's date and time of day at a fixed offset from UTC, in the proleptic Gregorian calendar, worked out
/// with integer arithmetic. Foundation's `Calendar` and named time zones go through ICU, whose data costs an app
/// extension megabytes; a screen that words a day, and a driver that prints RFC 3339 text, need no more than this.
public struct CivilTime: Equatable, Sendable {
    /// The year (astronomical: 0 is 1 BC, negative before it).
    public var year: Int64
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int
    /// The hour, 0–23.
    public var hour: Int
    /// The minute, 0–59.
    public var minute: Int
    /// The second, 0–59.
    public var second: Int
    /// The millisecond, 0–999: the instant's rounded to the nearest, a half up (as Foundation's formatters do).
    public var millisecond: Int

    /// `date` read `offset` seconds east of UTC. Nil for an instant too far from 1970 to hold (more than about
    /// 31,000 years), or not finite.
    public init?(_ date: Date, offset: Int = 0) {
        let milliseconds = ((date.timeIntervalSince1970 + Double(offset)) * 1_000 + 0.5).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return nil }
        let (days, inDay) = Self.floorDivide(Int64(milliseconds), 86_400_000)
        // Howard Hinnant's `civil_from_days`: days since 1970-01-01 to a year, month and day.
        let (era, dayOfEra) = Self.floorDivide(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = Int(month)
        day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let seconds = Int(inDay / 1_000)
        hour = seconds / 3_600
        minute = seconds / 60 % 60
        second = seconds % 60
        millisecond = Int(inDay % 1_000)
    }

    /// `value` divided by `divisor`, rounded down, and the remainder (never negative).
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }
}
