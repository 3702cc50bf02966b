import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The owner's outbox takes in what another process composed into the shared log: announced as its usual events,
/// and sent by the automatic policy.
@MainActor
@Suite("DurableOutbox foreign changes", .removesTemporaryDirectories)
struct DurableOutboxForeignChangesTests {
    @Test("a guest's message is announced once, as changed, and the automatic policy sends it")
    func guestMessageIsTakenInAndSent() async throws {
        // Given an owner's outbox, online and automatic, and a guest store on the same directory
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let repository = FakeMessageRepository(clock: clock)
        let ownerStore = try FileOutboxStore(directory: directory.url, access: .owner)
        let guest = try FileOutboxStore(directory: directory.url, access: .guest)
        defer {
            ownerStore.close()
            guest.close()
        }
        let outbox = DurableOutbox(
            store: ownerStore, repository: repository, connectivity: ManualConnectivity(online: true), clock: clock,
            ids: .random, currentUser: "me", policy: .automatic)
        var events: [OutboxEvent] = []
        let token = outbox.observe { events.append($0) }
        defer { _ = token }
        events.removeAll()

        // When the guest composes and the owner looks (twice)
        let composed = try guest.enqueueComposed(
            Message(
                id: "x1", conversationID: "c1", senderID: "me", text: "from the share sheet", timestamp: clock.now,
                status: .queued))
        let first = outbox.takeInForeignChanges()
        let second = outbox.takeInForeignChanges()

        // Then the first look announces it, the second finds nothing, and the policy sends it
        #expect(first.changed.map(\.id) == ["x1"])
        #expect(second.isEmpty)
        #expect(events.first == .changed(composed))
        #expect(await clock.run(until: { !outbox.isBusy }))
        #expect(ownerStore.message("x1") == nil)
        #expect(events.contains { if case .changed(let message) = $0 { message.status == .sent } else { false } })
    }
}
