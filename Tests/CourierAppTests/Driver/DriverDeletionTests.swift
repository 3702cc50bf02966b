import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// `conversations delete ID` through the driver, as a person does it: the confirmation, then Delete or Cancel.
@MainActor
@Suite("Driver deletion", .removesTemporaryDirectories) struct DriverDeletionTests {
    @Test("delete finds a row the list has not shown yet, confirms with what goes, and a relaunch brings none back")
    func deletingAConversationOffTheFirstPage() async throws {
        // Given a message queued in c77 (on the list's second page) and left for the user, the list never loaded
        let harness = try await AppTestsDriverHarness.started()
        await harness.expectScript(
            "open c77\nnetwork offline\nsend going nowhere\nnetwork online\ntoast dismiss\nopen c2")

        // When the user deletes c77, then confirms
        await harness.expectScript(
            """
            conversations delete c77
            expect conversations.alert.title == "Delete Conversation"
            expect conversations.alert.message contains "1 queued message"
            choose delete
            expect queue.count == 0
            """)

        // Then the row is gone, the backend hides it for me alone, and a relaunch brings neither back
        let ids = try await harness.state()["conversations"]?["items"]
        #expect(ids.map { "\($0)" }?.contains("c77") == false)
        await harness.expectScript("restart\nexpect queue.count == 0\nexpect toast.visible == false")
        #expect(harness.driver.world.backend.isHidden("c77", for: "me"))
        #expect(!harness.driver.world.backend.isHidden("c77", for: "tomas"))
    }

    @Test("cancel keeps everything; an unknown conversation is a failed command that changes nothing")
    func cancelAndUnknown() async throws {
        let harness = try await AppTestsDriverHarness.started()
        await harness.expectScript("conversations delete c3\nchoose cancel\nexpect conversations.alert == null")
        #expect(await harness.execute("conversations delete c999").ok == false)
        await harness.expectScript("expect conversations.count == 120")
    }
}
