import Foundation
import Testing

@testable import CourierApp

/// The driver's timestamps, worked out without ICU, read as Foundation's `ISO8601DateFormatter` writes them.
@Suite struct InternetTimestampTests {
    private static func foundation() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    @Test("the driver's demo instants read as Foundation writes them")
    func knownInstants() {
        #expect(InternetTimestamp.string(Date(timeIntervalSince1970: 1_767_258_000)) == "2026-01-01T09:00:00.000Z")
        #expect(InternetTimestamp.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(InternetTimestamp.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(InternetTimestamp.string(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        // A half millisecond (exact in binary) goes up, before 1970 too, as Foundation's formatter takes it.
        #expect(InternetTimestamp.string(Date(timeIntervalSince1970: -1.0625)) == "1969-12-31T23:59:58.938Z")
        #expect(InternetTimestamp.string(Date(timeIntervalSince1970: 1.0625)) == "1970-01-01T00:00:01.063Z")
        let formatter = Self.foundation()
        for seconds in [-1.0625, 1.0625, -0.0005, 86_399.9995] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(InternetTimestamp.string(date) == formatter.string(from: date))
        }
    }

    @Test("50,000 instants from 1900 to 2200, with fractions of a millisecond, read as Foundation writes them")
    func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        let start = UInt64.random(in: 0...UInt64.max, using: &generator)
        var seed = start
        let formatter = Self.foundation()
        var mismatches: [String] = []
        for _ in 0..<50_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(seed >> 11) / Double(1 << 53)
            let date = Date(timeIntervalSince1970: -2_208_988_800 + unit * 9_467_280_000)
            let ours = InternetTimestamp.string(date)
            let theirs = formatter.string(from: date)
            if ours != theirs, mismatches.count < 5 {
                mismatches.append("\(date.timeIntervalSince1970): \(ours) vs \(theirs)")
            }
        }
        #expect(mismatches.isEmpty, "seed \(start)")
    }
}
