import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Time moves only when no tracked work can run, however slow that work is to get going.
@MainActor
@Suite struct ManualClockIdleTests {
    @Test func workThatHopsAwayAndBackBeforeSleepingIsWaitedFor() async {
        // Given a task that hops off the main actor many times before it starts its 10 s timeout, under CPU load
        let clock = ManualClock()
        let log = EventLog()
        let spinning = BusyThreads(4)
        defer { spinning.stop() }
        let hops = HopCounter()
        clock.task {
            for _ in 0..<200 { await hops.hop() }
            do {
                try await clock.sleep(for: .seconds(10))
                log.append("timeout at \(Int(clock.now.timeIntervalSince1970) % 100)")
            } catch {
                log.append("cancelled")
            }
        }

        // When 9 s pass
        await clock.advance(by: .seconds(9))

        // Then the timeout has not fired: the clock waited for the task to reach its sleep, so 9 s counted from it
        #expect(log.entries.isEmpty)
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(log.entries.count == 1)
    }

    @Test func aTaskWaitingForAnotherIsNotRunnableAndResumesBeforeTimeMovesOn() async {
        // Given a task that waits for a child which sleeps 5 s, then sleeps 5 s itself
        let clock = ManualClock()
        let log = EventLog()
        clock.task {
            let child = clock.task {
                try? await clock.sleep(for: .seconds(5))
                log.append("child at \(clock.now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60))")
            }
            await child.value
            try? await clock.sleep(for: .seconds(5))
            log.append("parent at \(clock.now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60))")
        }

        // When a minute passes in one call
        await clock.advance(by: .seconds(60))

        // Then the parent resumed as soon as the child ended and slept from there: 5 s, then 10 s
        #expect(log.entries == ["child at 5.0", "parent at 10.0"])
        #expect(clock.ledger?.runnableCount == 0)
    }

    @Test func coalescingSleepersWakeOnceAtTheEndOfAJumpRegularOnesAtTheirDeadlines() async {
        // Given a periodic refresh every 60 s and a one-off deadline at 90 s
        let clock = ManualClock()
        let start = clock.now
        let log = EventLog()
        clock.task {
            while !Task.isCancelled {
                do { try await clock.sleepCoalescing(until: clock.now.addingTimeInterval(60)) } catch { return }
                log.append("refresh at \(clock.now.timeIntervalSince(start))")
            }
        }
        clock.task {
            try? await clock.sleep(until: start.addingTimeInterval(90))
            log.append("deadline at \(clock.now.timeIntervalSince(start))")
        }

        // When a day passes in one jump
        await clock.advance(by: .seconds(86_400))

        // Then the one-off fired on time and the refresh once, at the end
        #expect(log.entries == ["deadline at 90.0", "refresh at 86400.0"])
    }
}
