import CourierDomain
import Foundation

/// An instant as RFC 3339 text in UTC with milliseconds ("2026-01-01T09:00:00.000Z"), as the driver prints
/// timestamps: the text `ISO8601DateFormatter` gives with `.withInternetDateTime` and `.withFractionalSeconds`,
/// without it. Foundation's formatter goes through ICU, and loading ICU's date formats was the driver's largest
/// single cost in memory (issue 33).
enum InternetTimestamp {
    /// The text for `date`; empty for an instant no calendar holds.
    static func string(_ date: Date) -> String {
        guard let time = CivilTime(date) else { return "" }
        return pad(time.year, 4) + "-" + pad(time.month, 2) + "-" + pad(time.day, 2) + "T" + pad(time.hour, 2) + ":"
            + pad(time.minute, 2) + ":" + pad(time.second, 2) + "." + pad(time.millisecond, 3) + "Z"
    }

    /// `value` in decimal, zero-padded to `width` digits (a negative year keeps its sign in front).
    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}
