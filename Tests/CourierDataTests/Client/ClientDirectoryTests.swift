import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A client's directory belongs to the user who first signed in there, and signing out erases it durably — a power
/// cut at any instant of the erase leaves nothing of the user's data for the next open to read.
@MainActor
@Suite struct ClientDirectoryTests {
    let clock = ManualClock()
    let directory = URL(fileURLWithPath: "/app")

    private func open(_ disk: SimulatedFileSystem, as user: UserID = "me", online: Bool = false) throws
        -> CourierClient
    {
        try CourierClient(
            directory: directory, currentUser: user, messages: FakeMessageRepository(clock: clock),
            conversations: FakeConversationRepository(), users: FakeUserRepository(),
            connectivity: ManualConnectivity(online: online), clock: clock, ids: .random, fileSystem: disk)
    }

    @Test func aDirectoryIsRefusedToAnotherUserAndNamesBoth() throws {
        // Given my directory with a queued message
        let disk = SimulatedFileSystem()
        let mine = try open(disk)
        try mine.outbox.compose(text: "for my eyes", in: "c1")
        mine.close()

        // When Ben opens it, then he is refused with both names, and nothing changed
        #expect(throws: StoreError.ownedByAnotherUser(owner: "me", requested: "ben")) { try open(disk, as: "ben") }
        #expect("\(StoreError.ownedByAnotherUser(owner: "me", requested: "ben"))".contains("belongs to me, not ben"))
        let again = try open(disk)
        #expect(again.outbox.pending.map(\.text) == ["for my eyes"])
        again.close()
    }

    @Test func signingOutErasesEveryStoreAndTheDirectoryIsFreeForAnyone() throws {
        // Given my directory with a queued message
        let disk = SimulatedFileSystem()
        let mine = try open(disk)
        try mine.outbox.compose(text: "secret", in: "c1")

        // When I sign out
        try mine.signOutErasingLocalData()

        // Then no file of mine is left, and Ben may open it, empty
        #expect(try disk.list(directory.path).allSatisfy { $0.hasPrefix(".") && $0 != ".erasing" })
        let bens = try open(disk, as: "ben")
        #expect(bens.outbox.pending.isEmpty)
        bens.close()
    }

    @Test func aPowerCutAtAnyInstantOfTheEraseLeavesNothingReadableOnceReopened() throws {
        var outcomes: Set<String> = []
        for cut in 0..<40 {
            // Given my directory with two queued messages, and the power cut after `cut` operations of the erase
            let disk = SimulatedFileSystem()
            let mine = try open(disk)
            try mine.outbox.compose(text: "one", in: "c1")
            try mine.outbox.compose(text: "two", in: "c2")
            disk.cutPower(afterOperations: cut)
            let finished = (try? mine.signOutErasingLocalData()) != nil
            disk.crash()

            // When the app opens the directory again (as me: a cut before the marker left my data whole)
            let next = try open(disk)
            let pending = next.outbox.pending.map(\.text)
            next.close()

            // Then it holds all of my messages (the erase never began) or none (it was finished at open)
            #expect(pending == ["one", "two"] || pending.isEmpty, "cut after \(cut)")
            #expect(!finished || pending.isEmpty)
            #expect(!ClientDirectory.isErasing(directory, fileSystem: disk))
            outcomes.insert(pending.isEmpty ? (finished ? "erased" : "finished at open") : "kept")
        }
        // And the cuts fell before, during and after the erase
        #expect(outcomes == ["kept", "finished at open", "erased"])
    }
}
