import CourierDomain
import CourierTestSupport
import Testing

@testable import CourierData

/// The sync engine's lifecycle — whether its loop runs and where it stands — alone: its transitions, with loops whose
/// tasks do nothing.
@MainActor
@Suite struct SyncLifecycleTests {
    private let clock = ManualClock()

    /// Starts a loop on `lifecycle` while the device is `online`; returns whether one started.
    private func start(_ lifecycle: inout SyncLifecycle, online: Bool = true) -> Bool {
        lifecycle.start(online: online) { _ in clock.task {} }
    }

    /// A lifecycle whose first loop caught up and listens, and that loop.
    private func live() throws -> (SyncLifecycle, SyncLifecycle.Loop) {
        var lifecycle = SyncLifecycle()
        _ = start(&lifecycle)
        let loop = try #require(lifecycle.loop)
        lifecycle.batchApplied(hasMore: false)
        lifecycle.listen()
        return (lifecycle, loop)
    }

    @Test func aLoopStartsOnlyOnlineInTheForegroundOneAtATimeAndCatchesUpFirst() {
        // Given a lifecycle that has run no loop
        var lifecycle = SyncLifecycle()
        #expect(!lifecycle.isRunning && lifecycle.isInForeground)

        // When asked to start offline, then online twice
        let offline = start(&lifecycle, online: false)
        let first = start(&lifecycle)
        let second = start(&lifecycle)

        // Then one loop runs, the first, and it catches up before it listens
        #expect(!offline && first && !second)
        #expect(lifecycle.loop?.generation == 1)
        #expect(lifecycle.isCatchingUp && !lifecycle.isLive)
    }

    @Test func aLoopListensOnlyOnceCaughtUpAndCatchesUpAgainAfterABatchCutAtItsLimit() {
        // Given a loop catching up
        var lifecycle = SyncLifecycle()
        _ = start(&lifecycle)

        // When it is about to ask while still catching up, then a whole batch comes
        lifecycle.listen()
        #expect(lifecycle.isCatchingUp && !lifecycle.isLive)
        lifecycle.batchApplied(hasMore: false)

        // Then it has seen the feed's end but holds no request yet; the next request listens
        #expect(!lifecycle.isCatchingUp && !lifecycle.isLive && lifecycle.isRunning)
        lifecycle.listen()
        #expect(lifecycle.isLive)

        // When a whole batch answers the live request, then one cut at its limit
        lifecycle.batchApplied(hasMore: false)
        #expect(lifecycle.isLive)
        lifecycle.batchApplied(hasMore: true)

        // Then it catches up again, with no live request open
        #expect(lifecycle.isCatchingUp && !lifecycle.isLive)
    }

    @Test func aFailedRequestClosesTheLiveRequestAndFailuresCountUntilOneSucceeds() throws {
        // Given a live loop
        var (lifecycle, _) = try live()

        // When two requests fail and are asked again
        lifecycle.requestFailed()
        lifecycle.willRetry()
        lifecycle.requestFailed()
        lifecycle.willRetry()

        // Then the loop still runs, caught up, with no live request, and counts two failures until one succeeds
        #expect(lifecycle.isRunning && !lifecycle.isLive && !lifecycle.isCatchingUp)
        #expect(lifecycle.consecutiveFailures == 2)
        lifecycle.succeeded()
        #expect(lifecycle.consecutiveFailures == 0)
    }

    @Test func aFailureWhileCatchingUpGoesOnCatchingUpAndANewLoopForgetsOldFailures() {
        // Given a loop catching up whose request failed
        var lifecycle = SyncLifecycle()
        _ = start(&lifecycle)
        lifecycle.requestFailed()
        lifecycle.willRetry()

        // Then it still catches up
        #expect(lifecycle.isCatchingUp && lifecycle.consecutiveFailures == 1)

        // When the device goes offline and comes back
        _ = lifecycle.close()
        #expect(lifecycle.consecutiveFailures == 1)
        _ = start(&lifecycle)

        // Then the new loop starts with no failure
        #expect(lifecycle.consecutiveFailures == 0)
    }

    @Test func theBackgroundEndsTheLoopAndNoneStartsUntilTheForeground() throws {
        // Given a live loop
        var (lifecycle, loop) = try live()

        // When the app goes to the background, twice
        let ended = lifecycle.enterBackground()
        let again = lifecycle.enterBackground()

        // Then the loop's task is handed back once, to cancel, and no loop starts in the background
        #expect(ended?.task == loop.task.task && again == nil)
        #expect(!lifecycle.isRunning && !lifecycle.isLive && !lifecycle.isInForeground)
        let inBackground = start(&lifecycle)
        #expect(!inBackground)

        // When the app comes back
        let back = lifecycle.enterForeground()

        // Then a new loop may start, catching up
        let backAgain = lifecycle.enterForeground()
        let started = start(&lifecycle)
        #expect(back && !backAgain)
        #expect(started && lifecycle.loop?.generation == 2 && lifecycle.isCatchingUp)
    }

    @Test func aLoopReplacedWhileWindingDownLeavesItsSuccessorAlone() {
        // Given a loop ended by going offline, and a new one started when the device came back
        var lifecycle = SyncLifecycle()
        _ = start(&lifecycle)
        _ = lifecycle.close()
        _ = start(&lifecycle)

        // When the first loop ends at last
        lifecycle.loopEnded(1)

        // Then the second still runs; when it ends, none does
        #expect(lifecycle.isCurrent(2) && !lifecycle.isCurrent(1))
        lifecycle.loopEnded(2)
        #expect(!lifecycle.isRunning)
    }

    @Test func aRefusedSignInHoldsNoLoopUntilItIsRenewed() {
        // Given a loop whose request the feed answered unauthorized
        var lifecycle = SyncLifecycle()
        _ = start(&lifecycle)
        lifecycle.requestFailed()
        lifecycle.pauseForSignIn()

        // Then no loop runs, and none starts, even online in the foreground
        let whilePaused = start(&lifecycle)
        #expect(lifecycle.isPausedForSignIn && !lifecycle.isRunning && !whilePaused)

        // When sign-in is renewed, twice
        let first = lifecycle.signInRenewed()
        let second = lifecycle.signInRenewed()

        // Then the first renewal lifts the pause and a loop may start; both count as renewals
        let started = start(&lifecycle)
        #expect(first && !second && lifecycle.signInRenewals == 2)
        #expect(started && lifecycle.isCatchingUp)
    }

    @Test func aStoppedEngineEndsItsLoopAndNeverStartsAnother() throws {
        // Given a live loop
        var (lifecycle, loop) = try live()

        // When the engine stops
        let ended = lifecycle.stop()

        // Then the loop's task is handed back to cancel, and nothing brings a loop back
        #expect(ended?.task == loop.task.task)
        #expect(lifecycle.isStopped && !lifecycle.isRunning && !lifecycle.isLive)
        lifecycle.pauseForSignIn()
        let renewed = lifecycle.signInRenewed()
        _ = lifecycle.enterBackground()
        _ = lifecycle.enterForeground()
        let started = start(&lifecycle)
        #expect(!renewed && !started && lifecycle.isStopped)
    }
}
