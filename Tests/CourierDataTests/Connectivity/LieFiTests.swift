import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Lie-fi: a backend that accepts every connection and never answers is unreachable, exactly as one that refuses.
@MainActor
@Suite struct LieFiTests {
    @Test func aSendToAHungBackendIsQueuedWithinTheBoundNeverFailed() async throws {
        // Given a backend that accepts every request and never answers
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.isHanging = true
        let start = fixture.clock.now

        // When the user sends
        let id = try fixture.compose("into the silence")
        await fixture.settle()

        // Then within the 5 s bound it is queued (not failed, no retry chain) and the backend counts as unreachable
        let message = try #require(fixture.client.outbox.pending.first { $0.id == id })
        #expect(message.status == .queued)
        #expect(fixture.clock.now.timeIntervalSince(start) <= 5.1)
        #expect(!fixture.client.reachability.isReachable)
        #expect(!fixture.client.connectivity.isBackendReachable)
        #expect(fixture.stored(in: "c1").isEmpty)
    }

    @Test func theProbeFindsTheThawedBackendAndTheQueueGoesOnceInOrder() async throws {
        // Given two messages queued while the backend hung, under the automatic policy
        let fixture = try OutageFixture(policy: .automatic)
        await fixture.settle()
        fixture.network.isHanging = true
        let ids = [try fixture.compose("one"), try fixture.compose("two")]
        await fixture.settle()
        #expect(fixture.client.outbox.pending.map(\.status) == [.queued, .queued])

        // When it answers again
        await fixture.clock.advance(by: .seconds(20))
        fixture.network.isHanging = false
        let up = fixture.clock.now
        _ = await fixture.clock.run(until: { fixture.client.outbox.pending.isEmpty }, limit: .seconds(120))

        // Then within one probe interval and one bound, both are stored once, in compose order
        #expect(fixture.client.outbox.pending.isEmpty)
        #expect(fixture.stored(in: "c1") == ids)
        #expect(fixture.backend.duplicatesIgnored == 0)
        #expect(fixture.clock.now.timeIntervalSince(up) <= 36)
        #expect(fixture.client.reachability.isReachable)
    }

    @Test func aRequestToAHungBackendNeverReachesItAndEndsAtTheBound() async throws {
        // Given the simulated network in front of a hung backend
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.isHanging = true
        let start = fixture.clock.now
        let message = Message(
            id: MessageID("m-hung"), conversationID: "c1", senderID: "me", text: "hello", timestamp: start,
            status: .sending)

        // When a send goes straight to it
        let sending = fixture.clock.task { () -> DeliveryError? in
            do {
                _ = try await fixture.network.send(message)
                return nil
            } catch { return error as? DeliveryError }
        }
        _ = await fixture.clock.run(until: { sending.work.isFinished }, limit: .seconds(60))

        // Then it fails as unanswered at the bound, and the backend stored nothing
        #expect(await sending.value == .unanswered)
        #expect(abs(fixture.clock.now.timeIntervalSince(start) - 5) < 0.1)
        #expect(fixture.stored(in: "c1").isEmpty)
    }

    @Test func anUnansweredSendIsNeverEditedAsIfItHadFailedAndGoesOnceAsTyped() async throws {
        // Given a send into a backend that hangs: it may or may not have arrived
        let fixture = try OutageFixture(policy: .automatic)
        await fixture.settle()
        fixture.network.isHanging = true
        let id = try fixture.compose("version A")
        await fixture.settle()
        let pending = try #require(fixture.client.outbox.pending.first { $0.id == id })
        #expect(pending.status == .queued && pending.outcomeUnknown && pending.lastError == .unanswered)

        // When the user tries to change its text
        #expect(throws: InputError.outcomeUnknown(id)) { try fixture.client.outbox.edit(id, text: "version B") }

        // Then nothing changed, and once the backend answers it goes under its id, once, with the text as typed
        #expect(fixture.client.outbox.pending.first { $0.id == id }?.text == "version A")
        fixture.network.isHanging = false
        _ = await fixture.clock.run(until: { fixture.client.outbox.pending.isEmpty }, limit: .seconds(120))
        #expect(fixture.backend.messages(in: "c1").map(\.text) == ["version A"])
        #expect(fixture.stored(in: "c1") == [id])
    }

    @Test func aSendThatNeverLeftTheDeviceStaysEditable() async throws {
        // Given a send cut off by the device going offline, which never reached the backend
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.setOnline(false)
        let id = try fixture.compose("draft")
        await fixture.settle()

        // When it is edited, then the edit holds
        try fixture.client.outbox.edit(id, text: "final")
        let edited = try #require(fixture.client.outbox.pending.first { $0.id == id })
        #expect(edited.text == "final")
        #expect(!edited.outcomeUnknown)
    }
}

/// Send All is an intent that outlives the process: pressed where nothing could go, it holds until what it covered
/// has gone — through a relaunch, whatever the policy.
@MainActor
@Suite struct DurableSendAllTests {
    @Test func aSendAllPressedOfflineHoldsThroughARelaunchAndGoesOnceBackOnline() async throws {
        // Given two messages queued offline under the manual policy, and Send All pressed then
        let disk = SimulatedFileSystem()
        let world = try DemoWorldFixture()
        let client = try world.open(disk: disk)
        await world.waitUntilSettled(client)
        world.network.setOnline(false)
        let first = try client.outbox.compose(text: "first", in: "c2")
        let second = try client.outbox.compose(text: "second", in: "c2")
        await world.run { await client.sendAll() }
        #expect(client.outbox.sendAllRequested)

        // When the app is killed and relaunched, still offline, and a third is written after the Send All
        client.close()
        let relaunched = try world.open(seed: 4, disk: disk)
        #expect(relaunched.outbox.sendAllRequested)
        let third = try relaunched.outbox.compose(text: "third", in: "c2")

        // Then, back online, the two it covered go by themselves, once, in order; the third waits for the user
        world.network.setOnline(true)
        await world.waitUntilSettled(relaunched)
        let stored = world.backend.messages(in: "c2").map(\.id)
        #expect(stored.suffix(2) == [first.id, second.id])
        #expect(relaunched.outbox.pending.map(\.id) == [third.id])
        #expect(!relaunched.outbox.sendAllRequested)
        relaunched.close()
    }
}
