import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// Virtual time under the driver: long jumps coalesce display refreshes yet keep every deadline, and a script
/// replays byte for byte however loaded the machine is.
@MainActor
@Suite("Driver time", .removesTemporaryDirectories) struct DriverTimeTests {
    @Test("advance 3650d with the list, a chat and the queue open: the stale write is cleaned, the toast times out")
    func aTenYearJumpKeepsEveryDeadline() async throws {
        // Given the list, a chat and the queue open, offline, with a queued message and a queued profile write
        let harness = try await AppTestsDriverHarness.started()
        let status = await harness.run(
            """
            conversations
            open c2
            network offline
            send hi
            queue
            profile name Maria
            expect writes.pending == 1
            """)
        #expect(status == .success)
        let start = try #require(harness.driver.world.manualClock).now

        // When ten years pass in one command, then the device comes back online
        #expect(await harness.execute("advance 3650d").ok)
        let afterJump = try #require(harness.driver.world.manualClock).now
        #expect(await harness.execute("network online").ok)

        // Then the clock stands exactly ten years on, the list's refresh waits one minute from there (it ran once,
        // at the end of the jump), the week-old profile write was dropped as stale rather than sent, and the
        // message still waits for the user
        #expect(afterJump == start.addingTimeInterval(3_650 * 86_400))
        #expect(try await harness.number("writes.pending") == 0)
        #expect(try await harness.number("queue.count") == 1)
        #expect(try await harness.state()["toast"]?["visible"] == .bool(true))

        // And the toast still times out on its own deadline
        #expect(await harness.execute("advance 11s").ok)
        #expect(try await harness.state()["toast"]?["visible"] == .bool(false))
    }

    @Test("in the background no screen's timer runs, a chat opened there included; the return redraws each once")
    func backgroundStopsEveryScreenTimer() async throws {
        // Given a queued message in the open chat and the queue shown, then the app in the background
        let harness = try await AppTestsDriverHarness.started()
        await harness.expectScript("open c2\nnetwork offline\nsend hi\nqueue\nbackground")
        let clock = try #require(harness.driver.world.manualClock)

        // When ten minutes pass there, and a chat is opened meanwhile
        await harness.expectScript("advance 10m\nopen c2\nadvance 10m")

        // Then nothing waits on the clock (no screen refreshes what nobody sees): the rows read as drawn at the open
        #expect(clock.sleeperCount == 0)
        await harness.expectScript("expect chat.messages[-1].time == \"10m ago\"")

        // And the return draws them once, true at that moment
        await harness.expectScript("foreground\nexpect chat.messages[-1].time == \"20m ago\"")
        #expect(harness.driver.app.messaging.queue.state.rows.first?.timeText == "20m ago")
    }

    @Test("world.json is rewritten only by a command that changes a setting")
    func settingsAreWrittenOnlyWhenChanged() async throws {
        // Given a driver with the list and a chat loaded (loading moves the virtual clock, which is saved)
        let harness = try await AppTestsDriverHarness.started(running: "conversations\nopen c2")
        // A blank line appended by hand (still valid JSON) marks the file as it stands: a write would drop it
        let url = harness.directory.appendingPathComponent("world.json")
        let marker = Data("\n\n".utf8)
        try (try Data(contentsOf: url) + marker).write(to: url)
        func isUntouched() throws -> Bool { try Data(contentsOf: url).suffix(2) == marker }

        // When commands run that change no setting and take no time
        await harness.expectScript("state\nqueue\nhelp\nexpect queue.count == 0")

        // Then the file was not written
        #expect(try isUntouched())

        // When a setting changes, it is written
        #expect(await harness.execute("network offline").ok)
        #expect(try !isUntouched())
    }

    @Test("a script prints byte-identical output across runs while other threads keep the cores busy")
    func replaysIdenticallyUnderLoad() async throws {
        // Given threads spinning on every core
        let spinning = BusyThreads(4)
        defer { spinning.stop() }
        let script = """
            network offline
            open c9
            state
            profile name Maria
            send one
            network online
            profile name Mia
            advance 1s
            state
            toast yes
            network profile flaky
            send two
            send three
            advance 90s
            state
            """

        // When the script runs several times on fresh data directories
        var outputs: [[String]] = []
        for _ in 0..<6 {
            let harness = try await AppTestsDriverHarness.started()
            await harness.run(script, stopOnFailure: false)
            outputs.append(harness.output)
            harness.close()
        }

        // Then every run printed the same bytes
        #expect(outputs.count == 6)
        #expect(Set(outputs).count == 1)
        #expect(outputs.first?.isEmpty == false)
    }
}
