import CourierData
import CourierDomain
import CourierPresentation
import Foundation
import Testing

/// An app's profile screen on the client's public surface alone: the client's user directory shows an edit at once,
/// and the client's write queue delivers it through the executor the app registered.
@MainActor
@Suite struct AdoptionProfileTests {
    let clock = ManualClock()
    let backend = DictionaryBackend()
    let connectivity = SwitchConnectivity(online: false)

    @Test func aNameChangedOfflineShowsAtOnceAndReachesTheBackendOnceOnline() async throws {
        // Given an app offline whose client knows how to deliver a display-name write, and its profile screen
        let folder = try ScratchDirectory()
        let backend = backend
        let client = try CourierClient(
            directory: folder.url.appendingPathComponent("courier"), currentUser: "me", messages: backend,
            conversations: backend, users: backend, connectivity: connectivity, clock: clock, ids: .random,
            writeExecutors: [
                ProfileViewModel.displayNameKind: { write in backend.rename("me", to: try write.decodePayload()) }
            ])
        let profile = ProfileViewModel(session: client, writes: client.writes)

        // When the user changes the name offline
        try profile.changeDisplayName(to: "Marta")

        // Then every screen reading the client's users shows it at once, and the write waits
        #expect(await client.users.users(["me"])["me"]?.displayName == "Marta")
        #expect(profile.state.pendingCount == 1)
        #expect(try await backend.users(["me"]).first?.displayName == "me")

        // And once online, the write reaches the backend and nothing waits any more
        connectivity.set(online: true)
        await client.idle()
        _ = await clock.run(until: { !profile.hasPendingWork })
        #expect(try await backend.users(["me"]).first?.displayName == "Marta")
        #expect(profile.state.pendingCount == 0)
        #expect(profile.state.givenUp.isEmpty)
        client.close()
    }
}
