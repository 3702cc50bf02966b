import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// What a person sees through the driver: banner, toast and alert lines as they change, the message taps and
/// their buttons, one-attempt Retry, and write-queue give-ups that roll back.
@Suite("Driver screens", .removesTemporaryDirectories)
@MainActor
struct DriverScreenTests {
    @Test("banner and toast changes print as they happen, and the toast goes when the device goes offline again")
    func screenChangesPrint() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nnetwork offline\nsend one")

        let online = await harness.execute("network online")
        let offline = await harness.execute("network offline")

        // Online, the banner stays while the message waits (the toast says "Connected" and asks)
        #expect(
            online.lines == [
                "banner: 1 message waiting to send.", "toast: Connected. Auto-send 1 queued message?",
                "network: online, wifi",
            ])
        #expect(
            offline.lines == ["banner: You're offline. 1 message queued.", "toast: —", "network: offline, wifi"])
        #expect(!(await harness.execute("toast yes").ok), "no toast to answer while offline")
    }

    @Test("under the automatic policy a reconnect shows Reconnecting... while the queue goes, then Connected")
    func reconnectingBanner() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: "policy auto\nopen c2\nnetwork offline\nsend one\nsend two")

        let online = await harness.execute("network online")

        #expect(
            online.lines == ["banner: Reconnecting...", "banner: Connected", "network: online, wifi"],
            "\(online.lines)")
        #expect(try await harness.number("queue.count") == 0)
    }

    @Test("between commands, a delivery after 3G latency prints the message's row as it changes")
    func deliveryBetweenCommandsPrints() async throws {
        // As in an interactive session: no command runs while the message travels.
        let (harness, _, before) = try await sentBetweenCommands("over 3g")
        let printed = await printed(by: harness, since: before)

        #expect(printed == ["  Now me: over 3g  [Sent]"])
    }

    @Test("between commands, a receipt that raises a row sent between commands prints its row once, not twice")
    func aRaiseBetweenCommandsPrintsOnce() async throws {
        let (harness, clock, before) = try await sentBetweenCommands("read me")

        // When Ben reads it, the receipt reaching the open chat through the feed while no command runs
        let backend = harness.driver.world.backend
        let newest = try #require(backend.messages(in: "c2").last)
        try backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: newest.cursor))
        await clock.advance(by: .seconds(5))
        let printed = await printed(by: harness, since: before)

        // Then the row printed as sent, then once as read (the label tracker and the receipt's raise both saw it),
        // and my older message the receipt covers too
        #expect(
            printed == [
                "  Now me: read me  [Sent]", "  Now me: read me  [Read]",
                "  30m ago me: Yes! 7pm at the usual place.  [Read]",
            ], "\(printed)")
    }

    /// A driver on 3G with c2 open, as in an interactive session (rows print between commands), that sent `text`
    /// from the chat and let two seconds pass; and how many lines it had printed before the send.
    private func sentBetweenCommands(_ text: String) async throws
        -> (harness: AppTestsDriverHarness, clock: ManualClock, before: Int)
    {
        let harness = try await AppTestsDriverHarness.started(running: "network profile 3g\nopen c2")
        let clock = try #require(harness.driver.world.manualClock)
        harness.driver.watcher.betweenCommands = true
        let before = harness.output.count
        try #require(harness.driver.app.chat).send(text: text)
        await clock.advance(by: .seconds(2))
        return (harness, clock, before)
    }

    /// The lines `harness` printed since `before`, up to a `state` command run to end the stretch (not its own).
    private func printed(by harness: AppTestsDriverHarness, since before: Int) async -> [String] {
        _ = await harness.execute("state")
        return Array(harness.output[before...].dropLast())
    }

    @Test("tap and choose: a queued message's sheet (Info, OK, Cancel) and a failed message's alert")
    func tapAndChoose() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nnetwork offline\nsend keep\nsend drop")

        let tap = await harness.execute("tap 2")
        let info = await harness.execute("choose INFO")
        let ok = await harness.execute("choose ok")
        await harness.expectScript("tap 2\nchoose cancel")

        let sheet = "alert: Queued Message — This message is waiting for a connection. [Cancel | Info | Dismiss]"
        #expect(tap.lines == [sheet])
        #expect(
            info.lines.first
                == "alert: Queued Message — This message will send automatically when you're back online [OK]")
        #expect(ok.lines.first == "alert: —")
        #expect(try await harness.number("queue.count") == 1)
        #expect(!(await harness.execute("choose ok").ok), "no alert is open")
        await harness.expectScript(
            """
            network online
            toast yes
            expect chat.messages[-1].text == "keep"
            expect chat.messages[-1].status == "sent"
            """)
    }

    @Test("Retry is one attempt: a failing retry answers within 3 s, not after the 1/2/4 s chain")
    func retryIsOneAttempt() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nnetwork fail-rate 1\nsend doomed")
        let before = try await harness.state()["clock"]?["now"]?.stringValue ?? ""

        await harness.expectScript("tap 1\nchoose retry\nexpect chat.messages[-1].status == \"failed\"")

        let after = try await harness.state()["clock"]?["now"]?.stringValue ?? ""
        let elapsed = try #require(Self.date(after)).timeIntervalSince(try #require(Self.date(before)))
        #expect(elapsed < 3, "\(before) → \(after)")
    }

    @Test("a stale write removed at launch is reported and rolls back; one failing online stays until it goes")
    func writeQueueGiveUps() async throws {
        let harness = try await AppTestsDriverHarness.started()
        await harness.expectScript(
            """
            network offline
            profile name Stale
            advance 8d
            restart
            expect writes.pending == 0
            expect writes.rejected[0] == "profile.displayName: expired"
            expect profile.displayName == "Me"
            network online
            network fail-rate 1
            profile name Kept
            expect profile.displayName == "Kept"
            advance 30m
            expect writes.pending == 1
            network fail-rate 0
            advance 5m
            expect writes.pending == 0
            expect server.displayName == "Kept"
            """)
    }

    @Test("the conversation list is kept: offline after a relaunch it still shows what it loaded online")
    func conversationListKeptOffline() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: """
                conversations
                network offline
                restart
                conversations
                expect conversations.count == 50
                expect conversations.items[0].id == "c1"
                """)
        harness.close()
    }

    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

extension DriverScreenTests {
    @Test("opening a chat is one request in server.requests, its page: the names and presence it shows do not count")
    func openingAChatCountsItsPageOnly() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "")
        let before = try await harness.number("server.requests")
        #expect(await harness.execute("open c2").ok)
        #expect(try await harness.number("server.requests") == before + 1)
    }
}
