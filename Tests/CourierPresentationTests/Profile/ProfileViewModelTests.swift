import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The profile screen over the write queue: whole state histories for a name change online and offline, a newer
/// name replacing a queued one, bad input, and every way the queue gives a write up (with the name rolled back).
@MainActor
@Suite struct ProfileViewModelTests {
    let clock = ManualClock()
    let network = ManualConnectivity(online: true)
    let directory = FakeUserDirectory([])
    let server = User(id: "me", displayName: "Server Name")

    /// The profile screen over `writes`; the directory's backend knows the server's name unless a test says not.
    private func makeModel(_ writes: FakeWriteQueue) -> ProfileViewModel {
        if directory.backend.isEmpty { directory.backend = [server.id: server] }
        return ProfileViewModel(
            currentUser: "me", writes: writes, users: directory, connectivity: network, clock: clock)
    }

    private func state(_ pending: Int, _ givenUp: [String] = []) -> ProfileViewModel.State {
        ProfileViewModel.State(pendingCount: pending, givenUp: givenUp)
    }

    private func nameWrite(_ name: String, id: String = "old") throws -> PendingWrite {
        PendingWrite(
            id: id, kind: ProfileViewModel.displayNameKind, key: ProfileViewModel.displayNameKind,
            payload: try JSONEncoder().encode(name), createdAt: clock.now)
    }

    // MARK: - Changing the name

    @Test func onlineTheNameShowsAtOnceIsQueuedAndSyncedByItself() async throws {
        // Given an online device, whose screen synced once when it was made
        let writes = FakeWriteQueue(clock: clock)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)
        await clock.idle()
        #expect(writes.syncs == 1)

        // When the user changes the name (trimmed)
        try model.changeDisplayName(to: "  Marta ")

        // Then it shows at once, one write waits, and the sync started by the change delivers it
        #expect(directory.edits == ["update Marta"])
        #expect(writes.payloads(String.self) == ["Marta"])
        #expect(model.hasPendingWork)
        await clock.idle()
        #expect(recorder.states == [state(0), state(1), state(0)])
        #expect(!model.hasPendingWork)
        #expect(writes.syncs == 2)
    }

    @Test func offlineTheWriteWaitsAndComingOnlineSyncsIt() async throws {
        // Given an offline device
        network.set(online: false)
        let writes = FakeWriteQueue(clock: clock)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)

        // When the user changes the name twice
        try model.changeDisplayName(to: "Marta")
        try model.changeDisplayName(to: "Marta K")
        await clock.idle()

        // Then both show, but one write waits — the newer name replaced the older — and nothing synced
        #expect(directory.edits == ["update Marta", "update Marta K"])
        #expect(writes.payloads(String.self) == ["Marta K"])
        #expect(writes.syncs == 0)
        #expect(recorder.states == [state(0), state(1)])

        // And coming online syncs it
        network.set(online: true)
        await clock.idle()
        #expect(writes.syncs == 1)
        #expect(recorder.states == [state(0), state(1), state(0)])
    }

    @Test(arguments: [
        ("   ", DisplayNameError.empty), (String(repeating: "x", count: 65), .tooLong(characters: 65, limit: 64)),
    ])
    func aBadNameIsRefusedAndChangesNothing(name: String, error: DisplayNameError) async throws {
        // Given an online device
        let writes = FakeWriteQueue(clock: clock)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)

        // When the name is empty or too long, then it is refused with its reason and nothing changed
        #expect(throws: error) { try model.changeDisplayName(to: name) }
        await clock.idle()
        #expect(recorder.states == [state(0)])
        #expect(directory.edits.isEmpty && writes.count == 0)
        #expect(writes.syncs == 1, "only the one made when the screen opened online")
    }

    @Test func aNameOfExactlyTheLimitIsTaken() throws {
        let writes = FakeWriteQueue(clock: clock)
        try makeModel(writes).changeDisplayName(to: String(repeating: "x", count: 64))
        #expect(writes.count == 1)
    }

    @Test func aWriteTheQueueCannotTakeIsRefusedAndTheNameIsNotShown() async throws {
        // Given a full queue
        let writes = FakeWriteQueue(clock: clock)
        writes.refusal = StoreError.capacityReached(limit: 1_000)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)

        // When the user changes the name, then the queue's error comes back and nothing changed
        #expect(throws: StoreError.capacityReached(limit: 1_000)) { try model.changeDisplayName(to: "Marta") }
        await clock.idle()
        #expect(recorder.states == [state(0)])
        #expect(directory.edits.isEmpty)
    }

    // MARK: - Given up

    @Test func aRejectedNameIsReportedAndRolledBackToTheServersName() async throws {
        // Given a name change waiting offline
        network.set(online: false)
        let writes = FakeWriteQueue(clock: clock)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)
        let write = try writes.enqueue(
            kind: ProfileViewModel.displayNameKind, key: ProfileViewModel.displayNameKind, payload: "Bad")

        // When the backend refuses it for good
        writes.giveUp(write, as: .rejected(write, .validation(reason: "too rude")))
        await clock.idle()

        // Then it is listed with why, and the name shown is the server's again
        let why = DeliveryError.validation(reason: "too rude").userMessage
        let line = "profile.displayName: \(why)"
        #expect(recorder.states == [state(0), state(1), state(1, [line]), state(0, [line])])
        #expect(directory.edits == ["update Server Name"])
    }

    @Test func anAbandonedNameWithTheBackendUnreachableIsDroppedFromTheDirectory() async throws {
        // Given a name change and a backend that cannot answer
        let writes = FakeWriteQueue(clock: clock)
        directory.backend = [:]
        let model = ProfileViewModel(
            currentUser: "me", writes: writes, users: directory, connectivity: network, clock: clock)
        let recorder = StateRecorder(model)
        let write = try nameWrite("Doomed")

        // When the queue gives it up after too many attempts
        writes.giveUp(write, as: .abandoned(write, .server(code: 503)))
        await clock.idle()

        // Then it is listed, and the optimistic name is forgotten so the next read asks
        #expect(recorder.states == [state(0), state(0, ["profile.displayName: gave up (server(503))"])])
        #expect(directory.edits == ["invalidate me"])
    }

    @Test func aNameGivenUpWhileANewerOneWaitsIsNotRolledBack() async throws {
        // Given a newer name queued after an older one
        network.set(online: false)
        let writes = FakeWriteQueue(clock: clock)
        let model = makeModel(writes)
        try model.changeDisplayName(to: "Newer")
        let recorder = StateRecorder(model)

        // When the older one expires
        writes.giveUp(try nameWrite("Older"), as: .expired(try nameWrite("Older")))
        await clock.idle()

        // Then it is listed but the newer name stays on screen
        #expect(recorder.states == [state(1), state(1, ["profile.displayName: expired"])])
        #expect(directory.edits == ["update Newer"])
    }

    @Test func writesRemovedAsStaleAtOpenAreReportedAndTheNameRolledBack() async throws {
        // Given a queue that removed a week-old name change when it opened
        let writes = FakeWriteQueue(clock: clock, expiredAtOpen: [try nameWrite("Stale")])

        // When the screen is made
        let model = makeModel(writes)
        let recorder = StateRecorder(model)
        await clock.idle()

        // Then it reports the write at once and shows the server's name
        #expect(recorder.states == [state(0, ["profile.displayName: expired"])])
        #expect(directory.edits == ["update Server Name"])
    }

    @Test func aGivenUpWriteOfAnotherKindIsReportedWithoutTouchingTheName() async throws {
        // Given a rating write
        let writes = FakeWriteQueue(clock: clock)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)
        let rating = try writes.enqueue(kind: "rating", key: nil, payload: 5)

        // When the backend refuses it
        writes.giveUp(rating, as: .rejected(rating, .notFound))
        await clock.idle()

        // Then it is listed and no name changed
        let why = DeliveryError.notFound.userMessage
        #expect(recorder.states == [state(0), state(1), state(1, ["rating: \(why)"]), state(0, ["rating: \(why)"])])
        #expect(directory.edits.isEmpty)
    }

    // MARK: - Sign-in

    @Test func renewedSignInResumesTheQueueAndSyncs() async throws {
        // Given a name change held by an expired sign-in
        let writes = FakeWriteQueue(clock: clock)
        writes.syncLatency = .seconds(1)
        let model = makeModel(writes)
        let recorder = StateRecorder(model)
        _ = try writes.enqueue(
            kind: ProfileViewModel.displayNameKind, key: ProfileViewModel.displayNameKind, payload: "Held")

        // When sign-in is renewed
        model.signInRenewed()

        // Then the queue resumes and a sync delivers the write, tracked until it is over
        #expect(writes.renewals == 1)
        await clock.idle()
        #expect(model.hasPendingWork)
        await clock.advance(by: .seconds(1))
        #expect(!model.hasPendingWork)
        #expect(recorder.states == [state(0), state(1), state(0)])
    }
}
