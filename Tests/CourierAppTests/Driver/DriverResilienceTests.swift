import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// Resilience through the driver: rapid fire, airplane-mode toggling, expired sign-in, unknown outcomes and chaos.
@Suite("Driver resilience", .removesTemporaryDirectories)
@MainActor
struct DriverResilienceTests {
    /// What the backend holds for `conversation`, after checking that no id is there twice.
    private func serverTexts(_ harness: AppTestsDriverHarness, _ conversation: String) async throws -> [String] {
        let messages = try await harness.server(conversation)
        #expect(Set(messages.map(\.id)).count == messages.count, "an id is stored twice in \(conversation)")
        return messages.map(\.text)
    }

    // MARK: - Rapid fire

    @Test("25 messages composed back to back online, without waiting, all arrive once and in order")
    func rapidFire() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nnetwork profile 3g")
        let before = try await harness.number("server.counts.c2")
        let chat = try #require(harness.driver.app.chat)
        let texts = (1...25).map { "rapid \($0)" }
        // Composed while the first ones are still in flight: nothing waits between them.
        for text in texts { try chat.send(text: text) }

        #expect(await harness.execute("expect queue.count == 0").ok)
        #expect(try await harness.number("server.counts.c2") == before + 25)
        #expect(try await serverTexts(harness, "c2").suffix(25) == ArraySlice(texts))
        #expect(try await harness.number("server.duplicatesIgnored") == 0)
        let statuses = try await harness.state()["chat"]?["messages"]?.arrayValue.suffix(25).map { $0["status"] }
        #expect(statuses == Array(repeating: .string("sent"), count: 25))
    }

    @Test("25 send commands in a row online arrive once and in order")
    func rapidFireScript() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let texts = (1...25).map { "burst \($0)" }
        await harness.expectScript("open c4\n" + texts.map { "send \($0)" }.joined(separator: "\n"))
        #expect(try await serverTexts(harness, "c4").suffix(25) == ArraySlice(texts))
        #expect(try await harness.number("queue.count") == 0)
    }

    // MARK: - Airplane mode

    @Test("toggling connectivity over and over while messages are in flight loses nothing and sends nothing twice")
    func airplaneModeToggling() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nnetwork profile 3g\npolicy auto")
        let before = try await harness.number("server.counts.c2")
        let chat = try #require(harness.driver.app.chat)
        let network = harness.driver.world.network
        let clock = try #require(harness.driver.world.manualClock)
        var texts: [String] = []
        for index in 1...30 {
            let text = "toggle \(index)"
            try chat.send(text: text)
            texts.append(text)
            if index % 3 == 0 { network.setOnline(!network.isOnline) }
            // Part of a 3g round trip: requests are cut off mid-flight by the next toggle.
            await clock.advance(by: .milliseconds(130))
        }
        network.setOnline(true)

        await harness.expectScript("advance 1m\nexpect queue.count == 0")
        #expect(try await harness.number("server.counts.c2") == before + 30)
        #expect(try await serverTexts(harness, "c2").suffix(30) == ArraySlice(texts))
    }

    @Test("network offline/online commands between sends, manual policy: Send All delivers everything, in order")
    func togglingCommandsManualPolicy() async throws {
        let harness = try await AppTestsDriverHarness.started()
        var lines = ["open c5"]
        var texts: [String] = []
        for index in 1...12 {
            texts.append("m\(index)")
            lines.append("send m\(index)")
            if index % 4 == 0 { lines.append(index % 8 == 0 ? "network online\nqueue send all" : "network offline") }
        }
        lines.append("network online")
        lines.append("queue send all")
        await harness.expectScript(lines.joined(separator: "\n"))
        #expect(try await serverTexts(harness, "c5").suffix(12) == ArraySlice(texts))
        #expect(try await harness.number("queue.count") == 0)
    }

    // MARK: - Expired sign-in

    @Test("auth expire pauses sending and keeps every message unfailed; auth renew sends them, in order")
    func expiredSignIn() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let before = try await harness.number("server.counts.c2")
        await harness.expectScript(
            """
            open c2
            auth expire
            send held 1
            send held 2
            network offline
            send held 3
            network online
            advance 5m
            expect auth.paused == true
            expect chat.failed == []
            expect queue.count == 3
            expect queue.items[0].status == queued
            expect queue.items[1].status == queued
            expect queue.items[2].status == queued
            expect chat.error == "Authentication error. Please sign in again."
            """)
        #expect(try await harness.number("server.counts.c2") == before)

        // Renewing resends what was on its way; "held 3" was composed offline, so the manual policy still waits for
        // the user's Send All.
        await harness.expectScript(
            """
            auth renew
            expect auth.paused == false
            expect queue.count == 1
            expect queue.items[0].text == "held 3"
            expect chat.messages[-2].status == sent
            expect chat.messages[-3].status == sent
            queue send all
            expect queue.count == 0
            expect chat.messages[-1].status == sent
            """)
        #expect(try await serverTexts(harness, "c2").suffix(3) == ["held 1", "held 2", "held 3"])
    }

    @Test("an expired sign-in survives a restart; nothing is failed and renewing sends the held message")
    func expiredSignInAcrossRestart() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: """
                open c3
                auth expire
                send kept
                restart
                expect auth.expired == true
                expect queue.count == 1
                expect chat.failed == []
                auth renew
                expect queue.count == 0
                """)
        // Held by the sign-in, not queued by the user: renewing sends it, restart or not.
        #expect(try await serverTexts(harness, "c3").last == "kept")
    }

    // MARK: - Unknown outcome

    @Test("lost responses on the flaky profile: the backend ignores the resends and stores each message once")
    func unknownOutcome() async throws {
        let harness = try await AppTestsDriverHarness.started(seed: 1)
        let before = try await harness.number("server.counts.c2")
        let texts = (1...20).map { "maybe \($0)" }
        let sends = texts.map { "send \($0)" }.joined(separator: "\n")
        await harness.expectScript("open c2\nnetwork profile flaky\n" + sends)
        // Messages whose retry budget ran out are failed; the user retries them on a good network.
        await harness.expectScript("network profile wifi\nqueue send all\nexpect queue.count == 0")

        let duplicates = try await harness.number("server.duplicatesIgnored")
        #expect(duplicates > 0, "seed 1 must lose at least one response after the backend applied the write")
        #expect(try await harness.number("server.counts.c2") == before + 20)
        #expect(try await serverTexts(harness, "c2").suffix(20) == ArraySlice(texts))
        let statuses = try await harness.state()["chat"]?["messages"]?.arrayValue.suffix(20).map { $0["status"] }
        #expect(statuses == Array(repeating: .string("sent"), count: 20))
    }

    // MARK: - Chaos

    /// Four conversations, the flaky profile, connectivity flicker, restarts, the automatic policy.
    @Test(
        "chaos: every message delivered exactly once, in compose order, and the queue empty",
        arguments: [UInt64(3), 11, 29])
    func chaos(seed: UInt64) async throws {
        let harness = try await AppTestsDriverHarness.started(seed: seed)
        let conversations = ["c2", "c3", "c4", "c5"]
        var before: [String: Int] = [:]
        for id in conversations { before[id] = try await harness.number("server.counts.\(id)") }
        await harness.expectScript("network profile flaky\npolicy auto")

        var random = SeededRandom(seed: seed)
        var sent: [String: [String]] = [:]
        var open = ""
        var lineNumber = 0
        func execute(_ line: String) async {
            lineNumber += 1
            let result = await harness.execute(line, number: lineNumber)
            #expect(result.ok, "\(line): \(result.lines.joined(separator: "\n"))")
        }
        for step in 0..<150 {
            let roll = random.nextUnit()
            switch roll {
            case ..<0.6:
                let conversation = conversations[Int(random.next() % UInt64(conversations.count))]
                if conversation != open {
                    await execute("open \(conversation)")
                    open = conversation
                }
                let text = "chaos \(seed)-\(step)"
                await execute("send \(text)")
                sent[conversation, default: []].append(text)
            case ..<0.75: await execute("network offline")
            case ..<0.9: await execute("network online")
            case ..<0.97: await execute("advance \(200 + Int(random.next() % 5_000))ms")
            default: await execute("restart")
            }
        }
        // The network settles; messages whose three rounds ran out wait for the user, who sends them all.
        for line in ["network online", "network profile wifi", "advance 2m", "queue send all", "advance 1m"] {
            await execute(line)
        }

        #expect(try await harness.number("queue.count") == 0)
        for id in conversations {
            let expected = sent[id, default: []]
            let texts = try await serverTexts(harness, id)
            #expect(try await harness.number("server.counts.\(id)") == (before[id] ?? 0) + expected.count, "\(id)")
            #expect(texts.filter { $0.hasPrefix("chaos ") } == expected, "\(id) in compose order, once each")
        }
        #expect(sent.values.reduce(0) { $0 + $1.count } > 60)
        // The run did meet lost responses: the exactly-once above held against real resends.
        #expect(try await harness.number("server.duplicatesIgnored") > 0)
    }
}
