import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// Other people through the driver: `peer`, `events trim`, `--user`, and what prints as it arrives.
@Suite("Driver live", .removesTemporaryDirectories)
@MainActor
struct DriverLiveTests {
    @Test("peer send returns once the open chat shows the message, and its row printed as it arrived")
    func peerSendArrivesInTheOpenChat() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2")

        let result = await harness.execute("peer ben send c2 see you at 7", number: 2)

        #expect(result.ok)
        #expect(result.lines.first == "  Now ben: see you at 7")
        #expect(result.lines.last?.hasPrefix("ben sent @") == true)
        await harness.expectScript(
            """
            expect chat.messages[-1].text == "see you at 7"
            expect chat.messages[-1].statusLabel == ""
            expect sync.live == true
            """)
    }

    @Test("a message deleted on my other device leaves the open chat and the list's preview, for good")
    func deletedOnMyOtherDevice() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2")
        let before = try await harness.number("server.counts.c2")
        await harness.expectScript(
            """
            peer me send c2 from my phone
            expect chat.messages[-1].text == "from my phone"
            expect chat.messages[-1].status == sent
            """)
        let shown = try await harness.state()["chat"]?["messages"]?.arrayValue ?? []
        let previous = try #require(shown.dropLast().last?["text"])

        let result = await harness.execute("peer me delete c2 1", number: 4)

        #expect(result.ok, "\(result.lines)")
        #expect(result.lines.last?.hasPrefix("me deleted @") == true)
        #expect(try await harness.state()["chat"]?["messages"]?.arrayValue.last?["text"] == previous)
        #expect(try await harness.number("server.counts.c2") == before)
        await harness.expectScript(
            """
            conversations
            expect conversations.items[0].id == c2
            expect conversations.items[0].preview != "from my phone"
            restart
            open c2
            expect chat.messages[-1].text != "from my phone"
            """)
        // Only the sender deletes: Ben cannot delete my message, and a REF that names nothing is refused.
        #expect(!(await harness.execute("peer ben delete c2 @zzzzzzzz", number: 10)).ok)
        #expect(!(await harness.execute("peer ben delete c2", number: 11)).ok)
    }

    @Test("peer read prints my rows with their new label, and the backend holds the marker")
    func peerReadRaisesMyRows() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nsend are you there?")

        let result = await harness.execute("peer ben read c2", number: 3)

        #expect(result.ok)
        #expect(result.lines.contains("  Now me: are you there?  [Read]"))
        await harness.expectScript(
            """
            expect chat.messages[-1].status == read
            expect server.reads.c2.ben != null
            expect server.reads.c2.me != null
            """)
        harness.close()
    }

    @Test("peer commands refuse what the person cannot do, and change nothing")
    func peerRefusals() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2")
        let before = try await harness.number("server.counts.c2")

        for (line, text) in [
            ("peer ana send c2 not mine", "ana is not a participant of c2"),
            ("peer ben send c999 hello", "no conversation c999"),
            ("peer ben wave c2", "usage: peer USER send ID TEXT…"),
            ("peer ben", "usage: peer USER send ID TEXT…"),
            ("events forget", "usage: events trim"),
        ] {
            let result = await harness.execute(line, number: 2)
            #expect(!result.ok, "\(line)")
            #expect(result.lines.last?.contains(text) == true, "\(line): \(result.lines)")
        }
        #expect(try await harness.number("server.counts.c2") == before)
    }

    @Test("offline and in the background nothing arrives; the catch-up brings it, in order, once")
    func gapsAreCaughtUp() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: """
                open c2
                network offline
                peer ben send c2 one
                peer ben send c2 two
                expect chat.messages[-1].text == "Perfect, see you there."
                network online
                expect chat.messages[-2].text == one
                expect chat.messages[-1].text == two
                background
                peer ben send c2 three
                expect chat.messages[-1].text == two
                expect sync.live == false
                foreground
                expect chat.messages[-1].text == three
                expect chat.count == 6
                expect sync.live == true
                """)
        harness.close()
    }

    @Test("events trim: a device behind starts over, keeps its queued message, and shows what it missed")
    func trimStartsOver() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: """
                open c2
                network offline
                send kept for later
                peer ben send c2 missed
                events trim
                network online
                expect sync.resets == 1
                expect queue.count == 1
                expect chat.messages[-2].text == missed
                expect chat.messages[-1].text == "kept for later"
                expect chat.messages[-1].status == queued
                """)
        harness.close()
    }

    @Test("a relaunch keeps the unread count and shows each message once")
    func unreadSurvivesARelaunch() async throws {
        let directory = try await AppTestsDriverHarness.directory(
            after: """
                conversations
                peer ana send c1 first
                peer ana send c1 second
                expect conversations.items[0].unreadCount == 2
                """)
        let harness = try await AppTestsDriverHarness.reopened(directory)
        await harness.expectScript(
            """
            network offline
            conversations
            expect conversations.items[0].id == c1
            expect conversations.items[0].unreadCount == 2
            network online
            open c1
            expect chat.messages[-1].text == second
            expect chat.messages[-2].text == first
            conversations
            expect conversations.items[0].unreadCount == 0
            """)
        harness.close()
    }

    @Test("--user signs in as another demo user; the directory then belongs to them")
    func anotherUser() async throws {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        var options = DriverOptions()
        options.dataDirectory = directory
        options.fresh = true
        options.clock = .virtual
        options.user = "ben"
        let driver = try Driver(options: options, inputIsTerminal: false, write: { _ in })
        await driver.start()
        #expect(driver.app.currentUser == "ben")
        #expect(await driver.execute(line: "open c2", number: 1))
        #expect(await driver.execute(line: "expect chat.title == Me", number: 2))
        driver.close()

        options.fresh = false
        options.user = "me"
        #expect(throws: StoreError.ownedByAnotherUser(owner: "ben", requested: "me")) {
            try Driver(options: options, inputIsTerminal: false, write: { _ in })
        }
        options.user = nil
        let again = try Driver(options: options, inputIsTerminal: false, write: { _ in })
        #expect(again.app.currentUser == "ben")
        again.close()
    }
}
