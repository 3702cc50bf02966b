import CourierDomain
import Foundation
import Testing

/// `CivilTime` reads an instant's date and time as Foundation's Gregorian calendar does, without it.
@Suite struct CivilTimeTests {
    @Test("known instants: the epoch, a leap day, the second before the epoch, a year 10,000")
    func knownInstants() throws {
        let epoch = try #require(CivilTime(Date(timeIntervalSince1970: 0)))
        #expect([epoch.year, Int64(epoch.month), Int64(epoch.day), Int64(epoch.hour)] == [1970, 1, 1, 0])
        let leap = try #require(CivilTime(Date(timeIntervalSince1970: 951_782_400)))
        #expect([leap.year, Int64(leap.month), Int64(leap.day)] == [2000, 2, 29])
        let before = try #require(CivilTime(Date(timeIntervalSince1970: -1)))
        #expect([before.year, Int64(before.month), Int64(before.day), Int64(before.second)] == [1969, 12, 31, 59])
        let far = try #require(CivilTime(Date(timeIntervalSince1970: 253_402_300_800)))
        #expect([far.year, Int64(far.month), Int64(far.day)] == [10_000, 1, 1])
        #expect(CivilTime(Date(timeIntervalSince1970: .infinity)) == nil)
        #expect(CivilTime(Date(timeIntervalSince1970: 1e300)) == nil)
    }

    @Test("an offset moves the day: 23:30 UTC is the next day at +01:00 and the same at -01:00")
    func offsets() throws {
        let late = Date(timeIntervalSince1970: 1_767_223_800)  // 2025-12-31T23:30:00Z
        let east = try #require(CivilTime(late, offset: 3_600))
        let west = try #require(CivilTime(late, offset: -3_600))
        #expect([east.year, Int64(east.month), Int64(east.day), Int64(east.hour)] == [2026, 1, 1, 0])
        #expect([west.year, Int64(west.month), Int64(west.day), Int64(west.hour)] == [2025, 12, 31, 22])
    }

    @Test("20,000 instants from 1600 to 2400 read as Foundation's Gregorian calendar in UTC reads them")
    func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SystemRandomNumberGenerator()
        let start = UInt64.random(in: 0...UInt64.max, using: &generator)
        var seed = start
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(seed >> 11) / Double(1 << 53)
            // Whole seconds: the calendar's own rounding of a fraction is not what is compared.
            let date = Date(timeIntervalSince1970: (-11_676_096_000 + unit * 25_245_000_000).rounded(.down))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let ours = try #require(CivilTime(date))
            let theirs = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map { $0 ?? -1 }
            let mine = [Int(ours.year), ours.month, ours.day, ours.hour, ours.minute, ours.second]
            if mine != theirs, mismatches.count < 5 {
                mismatches.append("\(date.timeIntervalSince1970): \(mine) vs \(theirs)")
            }
        }
        #expect(mismatches.isEmpty, "seed \(start)")
    }
}
