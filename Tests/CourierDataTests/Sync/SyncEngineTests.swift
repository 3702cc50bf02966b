import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The receive side: catch-up then live, in order, once, whatever the gap.
@MainActor
@Suite struct SyncEngineTests {
    @Test func aFreshDeviceStartsAtTheFeedsEndAndAppliesNothingOlder() async throws {
        // Given a feed that already holds events from before this device existed
        let fixture = SyncFixture()
        fixture.feed.push(.message(fixture.message("old1")))
        fixture.feed.push(.message(fixture.message("old2", at: 2)))

        // When the client opens for the first time
        try await fixture.open()

        // Then its cursor is the feed's end and nothing old was shown or cached
        let engine = try fixture.engine
        #expect(engine.cursor == FeedPosition(2))
        #expect(fixture.arrived.isEmpty)
        #expect(fixture.client?.messageCache.count == 0)
        #expect(engine.isLive)
        fixture.close()
    }

    @Test func missedEventsAreCaughtUpInOrderBeforeListening() async throws {
        // Given a client that went offline, and three messages sent meanwhile
        let fixture = SyncFixture()
        try await fixture.open()
        fixture.connectivity.set(online: false)
        for (index, id) in ["a", "b", "c"].enumerated() {
            fixture.feed.push(.message(fixture.message(id, at: Double(index + 1))))
        }
        let before = fixture.feed.requests.count

        // When it comes back online
        fixture.connectivity.set(online: true)
        await fixture.settle()

        // Then the catch-up asked without waiting and applied all three, in order, once; then it listens
        let engine = try fixture.engine
        let asked = fixture.feed.requests.dropFirst(before)
        #expect(asked.first?.wait == .zero)
        #expect(asked.last?.wait == SyncSettings().liveWait)
        #expect(fixture.arrived == ["a", "b", "c"])
        #expect(engine.cursor == FeedPosition(3))
        #expect(engine.isLive)
        #expect(fixture.client?.messageCache.messages(in: "c2").map(\.id) == ["a", "b", "c"])
        fixture.close()
    }

    @Test func aLiveMessageArrivesWhenItHappensNotWhenThePollTimesOut() async throws {
        // Given a live client
        let fixture = SyncFixture()
        try await fixture.open()
        let start = fixture.clock.now

        // When Ben sends 3 s later
        fixture.clock.task { [fixture] in
            try? await fixture.clock.sleep(for: .seconds(3))
            fixture.feed.push(.message(fixture.message("hi")))
        }
        await fixture.clock.advance(by: .seconds(3))
        await fixture.settle()

        // Then it arrived at once, 3 s in, long before the 25 s poll would have ended
        #expect(fixture.arrived == ["hi"])
        #expect(fixture.clock.now.timeIntervalSince(start) < 4)
        fixture.close()
    }

    @Test func eventsThatHappenDuringTheCatchUpApplyInOrderExactlyOnce() async throws {
        // Given five missed events, a catch-up that takes two events per request, 10 ms each
        let fixture = SyncFixture()
        fixture.settings = SyncSettings(batchLimit: 2)
        try await fixture.open()
        fixture.connectivity.set(online: false)
        for index in 1...5 { fixture.feed.push(.message(fixture.message("m\(index)", at: Double(index)))) }
        fixture.feed.latency = .milliseconds(10)

        // When the device reconnects and two more arrive 15 ms into the catch-up
        fixture.clock.task { [fixture] in
            try? await fixture.clock.sleep(for: .milliseconds(15))
            fixture.feed.push(.message(fixture.message("m6", at: 6)))
            fixture.feed.push(.message(fixture.message("m7", at: 7)))
        }
        fixture.connectivity.set(online: true)
        await fixture.clock.advance(by: .milliseconds(15))
        await fixture.settle()

        // Then all seven applied, in feed order, once each
        #expect(fixture.arrived == (1...7).map { MessageID("m\($0)") })
        #expect(try fixture.engine.cursor == FeedPosition(7))
        fixture.close()
    }

    @Test func aKillBetweenApplyingAndWritingTheCursorReplaysHarmlessly() async throws {
        // Given a client whose cursor is on disk before a batch of two messages from Ben
        let fixture = SyncFixture()
        try await fixture.open()
        let cursorFile = fixture.directory.appendingPathComponent("sync.log").path
        let before = try #require(fixture.disk.contents(of: cursorFile))
        fixture.feed.push(.message(fixture.message("x", at: 5)))
        fixture.feed.push(.message(fixture.message("y", at: 6)))
        await fixture.settle()
        #expect(fixture.cached("c2")?.unreadCount == 2)

        // When the app dies after applying them but before its cursor moved (the old cursor file comes back)
        fixture.close()
        let handle = try fixture.disk.open(cursorFile, create: false)
        try fixture.disk.truncate(handle, to: 0)
        try fixture.disk.write(before, at: 0, to: handle)
        try fixture.disk.sync(handle)
        fixture.disk.close(handle)
        try await fixture.open(loadingList: false)

        // Then the batch is asked for again and changes nothing: no arrival, no count, no copy
        #expect(fixture.arrived.isEmpty)
        #expect(fixture.cached("c2")?.unreadCount == 2)
        #expect(fixture.client?.messageCache.messages(in: "c2").map(\.id) == ["x", "y"])
        #expect(try fixture.engine.cursor == FeedPosition(2))
        fixture.close()
    }

    @Test func theCursorAndItsResetsSurviveARelaunch() async throws {
        // Given a client that applied two events and started over once
        let fixture = SyncFixture()
        try await fixture.open()
        fixture.feed.push(.message(fixture.message("x")))
        await fixture.settle()
        fixture.feed.forgetAll()
        fixture.connectivity.set(online: false)
        fixture.feed.push(.message(fixture.message("y", at: 2)))
        fixture.connectivity.set(online: true)
        await fixture.settle()
        #expect(try fixture.engine.resets == 1)

        // When it relaunches
        try await fixture.open()

        // Then it goes on from where it was
        #expect(try fixture.engine.cursor == FeedPosition(2))
        #expect(try fixture.engine.resets == 1)
        #expect(fixture.arrived.isEmpty)
        fixture.close()
    }

    @Test func inTheBackgroundNothingIsAskedAndOnReturnTheCatchUpComesFirst() async throws {
        // Given a live client sent to the background
        let fixture = SyncFixture()
        let client = try await fixture.open()
        #expect(fixture.feed.heldPolls == 1)
        client.enterBackground()
        await fixture.settle()
        #expect(try !fixture.engine.isLive)
        #expect(fixture.feed.heldPolls == 0)
        let asked = fixture.feed.requests.count

        // When Ben writes twice meanwhile, and an hour passes
        fixture.feed.push(.message(fixture.message("p")))
        fixture.feed.push(.message(fixture.message("q", at: 2)))
        await fixture.clock.advance(by: .seconds(3_600))
        #expect(fixture.feed.requests.count == asked)
        #expect(fixture.arrived.isEmpty)

        // Then on return both arrive through a catch-up, and it listens again
        client.enterForeground()
        await fixture.settle()
        #expect(fixture.feed.requests[asked].wait == .zero)
        #expect(fixture.arrived == ["p", "q"])
        #expect(try fixture.engine.isLive)
        fixture.close()
    }

    @Test func aFailedRequestIsRetriedWithBackoffAndAnExpiredSignInPausesUntilRenewed() async throws {
        // Given a live client whose feed fails once with a server error
        let fixture = SyncFixture()
        try await fixture.open()
        fixture.connectivity.set(online: false)
        fixture.feed.failures = [.server(code: 503)]
        fixture.feed.push(.message(fixture.message("late")))
        fixture.connectivity.set(online: true)
        _ = await fixture.clock.run(until: { (try? fixture.engine.consecutiveFailures) == 1 })

        // When a second passes, it asks again and gets the message
        await fixture.clock.advance(by: .seconds(1))
        await fixture.settle()
        #expect(fixture.arrived == ["late"])

        // And an unauthorized answer pauses listening: nothing is asked until sign-in is renewed
        fixture.connectivity.set(online: false)
        fixture.feed.failures = [.unauthorized]
        fixture.connectivity.set(online: true)
        await fixture.settle()
        #expect(try fixture.engine.isPausedForSignIn)
        let asked = fixture.feed.requests.count
        fixture.feed.push(.message(fixture.message("after", at: 2)))
        await fixture.clock.advance(by: .seconds(60))
        #expect(fixture.feed.requests.count == asked)
        fixture.client?.listeningSignInRenewed()
        await fixture.settle()
        #expect(fixture.arrived == ["late", "after"])
        fixture.close()
    }

    @Test func aFeedThatDoesNotHoldItsLongPollIsNotAskedInATightLoop() async throws {
        // Given a feed that answers a long poll at once with nothing (it ignores the wait)
        let fixture = SyncFixture()
        try await fixture.open()
        let asked = fixture.feed.requests.count
        fixture.feed.latency = .zero

        // When a minute passes with nothing happening
        await fixture.clock.advance(by: .seconds(60))

        // Then it was asked about twice a poll-wait (held polls), never thousands of times
        #expect(fixture.feed.requests.count - asked <= 3)
        fixture.close()
    }
}
