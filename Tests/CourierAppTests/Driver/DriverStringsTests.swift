import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// The driver prints a screen's words from its state — the toast's and Send All's labels, the queue's buttons, its
/// edit sheet and delete confirmation, the beginning of a conversation — rather than writing them itself.
@MainActor
@Suite(.removesTemporaryDirectories) struct DriverStringsTests {
    @Test("queue edit goes through the sheet and queue delete through the confirmation, printing their words")
    func queueSheetAndConfirmation() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: "open c2\nnetwork offline\nsend first\nsend second")

        let listing = await harness.execute("queue")
        #expect(listing.lines.contains("  [Send Now | Edit | Delete] · [Send All]"))

        let edit = await harness.execute("queue edit 2 renamed")
        #expect(edit.ok)
        #expect(
            Array(ownLines(edit.lines).prefix(2)) == ["sheet: Edit Message — renamed [Cancel | Save]", "chose: Save"])
        #expect(harness.driver.app.messaging.queue.state.editSheet == nil)

        let delete = await harness.execute("queue delete 1")
        #expect(delete.ok)
        #expect(
            Array(ownLines(delete.lines).prefix(2)) == [
                "confirm: Delete Message — This message will be deleted and will not be sent. [Delete | Cancel]",
                "chose: Delete",
            ])
        #expect(harness.driver.app.messaging.queue.state.deleteConfirmation == nil)
        #expect(await harness.execute("expect queue.items[0].text == \"renamed\"").ok)
        #expect(await harness.execute("expect queue.actions == [\"Send Now\", \"Edit\", \"Delete\"]").ok)
        #expect(await harness.execute("expect banner.actions == [\"Send All\"]").ok)
    }

    @Test("the toast's answer, the banner's Send All and the beginning of a conversation are the states' words")
    func toastBannerAndBeginning() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nnetwork offline\nsend one")

        #expect(await harness.execute("expect chat.beginning == \"Beginning of conversation\"").ok)
        #expect(await harness.execute("network online").ok)
        #expect(await harness.execute("expect toast.actions == [\"Yes\", \"Review First\"]").ok)
        #expect(ownLines(await harness.execute("toast yes").lines) == ["answered the toast: Yes"])
        #expect(await harness.execute("expect toast.actions == []").ok)

        #expect(await harness.execute("network offline").ok)
        #expect(await harness.execute("send two").ok)
        let sendAll = await harness.execute("banner send-all")
        #expect(ownLines(sendAll.lines) == ["Send All: You're offline. 1 message will send when you're back online."])
    }

    /// A command's own lines, without the screen changes printed as they happen (`banner: …`, `toast: …`, rows).
    private func ownLines(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("banner: ") && !$0.hasPrefix("toast: ") && !$0.hasPrefix("  ") }
    }
}
