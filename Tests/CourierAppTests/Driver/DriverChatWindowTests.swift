import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// The open chat shows a window of its newest rows; REFs still count every failed or queued message of the chat.
@Suite("Driver chat window", .removesTemporaryDirectories)
@MainActor
struct DriverChatWindowTests {
    @Test("a chat of 60 queued shows 50 rows, more shows the rest, and tap 1 names the oldest before it is shown")
    func windowAndReferences() async throws {
        // Given 60 messages queued in c2, which holds 3 on the server, and the chat opened again
        let harness = try await AppTestsDriverHarness.started()
        let sends = (1...60).map { "send queued \($0)" }.joined(separator: "\n")
        await harness.expectScript("open c2\nnetwork offline\n" + sends + "\nopen c1\nopen c2")

        // Then it shows the newest 50 and says there are more
        #expect(try await harness.number("chat.count") == 50)
        await harness.expectScript(
            """
            expect chat.hasMore == true
            expect chat.messages[0].text == "queued 11"
            expect chat.messages[-1].text == "queued 60"
            """)

        // When the first queued message, above the window, is tapped and cancelled
        await harness.expectScript("tap 1\nexpect chat.alert.title == \"Queued Message\"\nchoose cancel")

        // Then it left the queue, and `more` shows the other 59 below the server's 3
        #expect(try await harness.number("queue.count") == 59)
        await harness.expectScript("more")
        #expect(try await harness.number("chat.count") == 62)
        await harness.expectScript(
            """
            expect chat.hasMore == false
            expect chat.messages[3].text == "queued 2"
            """)
    }
}
