import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// One data directory's outbox, shared by two processes' outboxes (here two stores on one directory, each with its
/// own lease object, as two processes have): only the lease's holder sends, the lease changes hands when the app
/// goes to the background and back, and what a holder left `sending` goes again under its id (docs/design.md §2.8).
///
/// The disk is simulated: a real `flock` released in this process stays held for a moment while any thread of the
/// test runner spawns a child (the child holds a copy of every descriptor until it execs), which would make a
/// hand-over in one process racy. Real processes and real locks are `MultiProcessTests`' part.
@MainActor
@Suite("Outbox lease")
struct OutboxLeaseTests {
    /// Two outboxes on one directory, both online, manual policy: `app` opened first and holds the lease.
    @MainActor
    private struct Pair {
        let disk = SimulatedFileSystem()
        let directory = URL(fileURLWithPath: "/data/client")
        let clock = ManualClock()
        let appRepository: FakeMessageRepository
        let extensionRepository: FakeMessageRepository
        let app: DurableOutbox
        let appExtension: DurableOutbox
        let stores: [FileOutboxStore]

        init() throws {
            appRepository = FakeMessageRepository(clock: clock, serves: .sends)
            extensionRepository = FakeMessageRepository(clock: clock, serves: .sends)
            let appStore = try FileOutboxStore(directory: directory, fileSystem: disk, access: .owner)
            let extensionStore = try FileOutboxStore(directory: directory, fileSystem: disk, access: .guest)
            stores = [appStore, extensionStore]
            let leasePath = directory.appendingPathComponent("outbox.lease").path
            app = DurableOutbox(
                store: appStore, repository: appRepository, connectivity: ManualConnectivity(online: true),
                clock: clock, ids: .random, currentUser: "me", lease: OutboxLease(path: leasePath, fileSystem: disk))
            appExtension = DurableOutbox(
                store: extensionStore, repository: extensionRepository,
                connectivity: ManualConnectivity(online: true), clock: clock, ids: .random, currentUser: "me",
                lease: OutboxLease(path: leasePath, fileSystem: disk))
        }

        func close() {
            app.stop()
            appExtension.stop()
            for store in stores { store.close() }
        }

        /// Runs the clock until neither outbox works.
        func settle() async -> Bool { await clock.run(until: { !app.isBusy && !appExtension.isBusy }) }
    }

    @Test("two leases on one file: one holder at a time, and a release lets the other take it")
    func oneHolderAtATime() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectory("/data")
        let first = OutboxLease(path: "/data/outbox.lease", fileSystem: disk)
        let second = OutboxLease(path: "/data/outbox.lease", fileSystem: disk)

        #expect(try first.tryTake() && first.isHeld)
        #expect(try first.tryTake(), "taking a lease one holds is a yes")
        #expect(try second.tryTake() == false && !second.isHeld)
        first.release()
        #expect(!first.isHeld)
        #expect(try second.tryTake() && second.isHeld)
        #expect(try first.tryTake() == false)
    }

    @Test("beside the app in the foreground, an extension's message is queued for the app, which sends it")
    func theHolderSendsWhatAGuestComposed() async throws {
        let pair = try Pair()
        defer { pair.close() }
        #expect(!pair.app.isSuspended && pair.appExtension.isSuspended)

        // When the extension composes online
        let reply = try pair.appExtension.compose(text: "reply", in: "c1")

        // Then it is queued, and the extension sends nothing; the app takes it in and its Send All sends it once
        #expect(reply.status == .queued)
        #expect(pair.app.takeInForeignChanges().changed.map(\.id) == [reply.id])
        await pair.app.sendAll()
        #expect(await pair.settle())
        #expect(pair.extensionRepository.sends == 0)
        #expect(pair.appRepository.stored.map(\.id) == [reply.id])
    }

    @Test("with the app in the background the extension takes the lease and sends; back in front, the app sends")
    func theLeaseFollowsTheForeground() async throws {
        let pair = try Pair()
        defer { pair.close() }

        // When the app goes to the background and the extension composes
        pair.app.suspend()
        #expect(pair.app.isSuspended)
        let reply = try pair.appExtension.compose(text: "reply", in: "c1")

        // Then the extension held the lease and sent its message at once
        #expect(reply.status == .sending)
        #expect(await pair.settle())
        #expect(pair.extensionRepository.stored.map(\.id) == [reply.id])

        // And when the app comes back while the extension still holds the lease, it composes but cannot send
        pair.app.resume()
        #expect(pair.app.isSuspended)
        let waiting = try pair.app.compose(text: "typed meanwhile", in: "c1")
        #expect(waiting.status == .queued)

        // Then once the extension is done, the app's next look takes the lease and sends what was typed (it was
        // composed online: no Send All needed), once
        pair.appExtension.stop()
        _ = pair.app.takeInForeignChanges()
        #expect(!pair.app.isSuspended)
        #expect(await pair.settle())
        #expect(pair.appRepository.stored.map(\.id) == [waiting.id])
        #expect(pair.app.pending.isEmpty)
    }

    @Test("a send on its way when the app goes to the background finishes first; then the lease goes")
    func theBackgroundLetsTheLeaseGoOnceIdle() async throws {
        let pair = try Pair()
        defer { pair.close() }
        pair.appRepository.latency = .seconds(2)

        // Given a message on its way
        let message = try pair.app.compose(text: "on its way", in: "c1")
        #expect(message.status == .sending)
        await pair.clock.advance(by: .seconds(1))

        // When the app goes to the background mid-send
        pair.app.suspend()

        // Then the send goes on and the lease stays with the app until it is done
        #expect(!pair.app.isSuspended)
        #expect(try pair.appExtension.compose(text: "meanwhile", in: "c1").status == .queued)
        #expect(await pair.settle())
        #expect(pair.appRepository.stored.map(\.text).first == "on its way")
        #expect(pair.app.isSuspended, "idle in the background: the lease is free")

        // And the extension's next message takes the lease and goes at once, its earlier one with it
        let later = try pair.appExtension.compose(text: "later", in: "c1")
        #expect(later.status == .sending)
        #expect(await pair.settle())
        #expect(pair.extensionRepository.stored.map(\.text) == ["meanwhile", "later"])
        _ = pair.app.takeInForeignChanges()
        #expect(pair.app.pending.isEmpty)
    }

    @Test("in the background an app's own compose takes the free lease, sends, and lets it go again")
    func aBackgroundComposeTakesTheLeaseForItsSend() async throws {
        let pair = try Pair()
        defer { pair.close() }
        pair.app.suspend()
        #expect(pair.app.isSuspended)

        // When the app composes in the background (a reply from its own notification action)
        let reply = try pair.app.compose(text: "from the app's notification", in: "c1")

        // Then it goes at once, and once sent the lease is free for an extension again
        #expect(reply.status == .sending)
        #expect(await pair.settle())
        #expect(pair.appRepository.stored.map(\.id) == [reply.id])
        #expect(pair.app.isSuspended)
        #expect(try pair.appExtension.compose(text: "extension", in: "c1").status == .sending)
    }

    @Test("a holder that dies mid-send: the next holder sends what it left sending, under the same id")
    func aDeadHoldersSendIsTakenOver() async throws {
        let pair = try Pair()
        defer { pair.close() }
        pair.app.suspend()
        pair.extensionRepository.latency = .seconds(5)

        // Given the extension holding the lease, its message `sending` on disk
        let reply = try pair.appExtension.compose(text: "reply", in: "c1")
        #expect(reply.status == .sending)

        // When it dies (its lease goes with it) and the app comes back
        pair.appExtension.stop()
        pair.app.resume()

        // Then the app sends it, same id
        #expect(!pair.app.isSuspended)
        #expect(await pair.settle())
        #expect(pair.appRepository.stored.map(\.id) == [reply.id])
        #expect(pair.app.pending.isEmpty)
    }
}
