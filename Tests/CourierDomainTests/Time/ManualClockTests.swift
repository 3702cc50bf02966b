import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct ManualClockTests {
    @Test func sleepersWakeInDeadlineOrderTiesInRegistrationOrder() async {
        let clock = ManualClock()
        let log = EventLog()
        for (name, seconds) in [("late", 3), ("first-tie", 1), ("second-tie", 1), ("middle", 2)] {
            clock.throwingTask {
                try? await clock.sleep(for: .seconds(seconds))
                log.append(name)
            }
        }
        await clock.idle()
        #expect(clock.sleeperCount == 4)
        await clock.advance(by: .seconds(10))
        #expect(log.entries == ["first-tie", "second-tie", "middle", "late"])
    }

    @Test func timeMovesOnlyWhenAdvanced() async {
        let clock = ManualClock()
        let start = clock.now
        let log = EventLog()
        clock.throwingTask {
            try? await clock.sleep(for: .seconds(5))
            log.append("woke at \(clock.now.timeIntervalSince(start))")
        }
        await clock.advance(by: .seconds(4))
        #expect(log.entries.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(log.entries == ["woke at 5.0"])
        #expect(clock.now == start + 5)
    }

    @Test func cancellingASleeperRemovesIt() async {
        let clock = ManualClock()
        let task = clock.throwingTask { try await clock.sleep(for: .seconds(60)) }
        await clock.idle()
        task.cancel()
        await clock.idle()
        #expect(clock.sleeperCount == 0)
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func runUntilStopsWhenTheConditionHoldsOrNothingSleeps() async {
        let clock = ManualClock()
        let log = EventLog()
        clock.throwingTask {
            for step in 1...3 {
                try? await clock.sleep(for: .seconds(1))
                log.append("step \(step)")
            }
        }
        #expect(await clock.run(until: { log.entries.count == 2 }))
        #expect(log.entries == ["step 1", "step 2"])
        #expect(!(await clock.run(until: { log.entries.count == 9 })), "nothing left to wake")
        #expect(log.entries.count == 3)
    }
}
