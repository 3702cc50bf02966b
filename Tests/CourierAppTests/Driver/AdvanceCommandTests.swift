import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

@Suite("advance", .removesTemporaryDirectories)
struct AdvanceCommandTests {
    @Test("advance with a bad duration fails the command and leaves the clock where it was")
    @MainActor
    func advanceRejectsBadDuration() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let before = try await harness.state()["clock"]?["now"]
        let result = await harness.execute("advance 10parsecs", number: 7)
        #expect(!result.ok)
        #expect(result.lines == ["error: line 7: usage: advance DURATION (500ms, 10s, 5m, 2h, 8d)"])
        #expect(try await harness.state()["clock"]?["now"] == before)
        // The launch's catch-up took its simulated latency: two hours on from wherever the clock stands.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = try #require(try await harness.state()["clock"]?["now"]?.stringValue)
        let start = try #require(formatter.date(from: now))
        let expected = formatter.string(from: start.addingTimeInterval(7_200))
        #expect(await harness.execute("advance 2h").lines == ["clock: \(expected)"])
    }
}
