import CourierDomain
import Foundation
import Testing

@Suite("DurationText")
struct DurationTextTests {
    @Test("milliseconds, seconds, minutes, hours and days")
    func units() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("10s") == .seconds(10))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("2h") == .seconds(7_200))
        #expect(DurationText.parse("8d") == .seconds(8 * 86_400))
        #expect(DurationText.parse("0s") == .zero)
        #expect(DurationText.parse("1.5s") == .milliseconds(1_500))
        #expect(DurationText.parse("3650d") == .seconds(3_650 * 86_400))
    }

    @Test(
        "anything else is rejected",
        arguments: [
            "", "10", "ms", "s", "-1s", "10x", "abc", "10 s", " 10s", "5M", "1e400s", "nans", "infs", "3651d",
            "1w", "10sec", "5mins",
        ])
    func bad(_ text: String) {
        #expect(DurationText.parse(text) == nil)
    }
}
