import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// The driver run in process, script by script, as docs/driver.md promises.
@Suite("Driver sessions", .removesTemporaryDirectories)
@MainActor
struct DriverSessionTests {
    // MARK: - Scripts from the contract

    @Test("the example session of docs/driver.md passes verbatim")
    func contractExample() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let status = await harness.run(
            """
            open c2
            network offline
            send first
            send second
            expect banner.text == "You're offline. 2 messages queued."
            restart
            expect queue.count == 2
            network online
            expect toast.text == "Connected. Auto-send 2 queued messages?"
            toast yes
            expect queue.count == 0
            expect chat.messages[-1].text == "second"
            expect chat.messages[-1].status == "sent"
            """)
        #expect(status == .success, "\(harness.output.joined(separator: "\n"))")
        #expect(!harness.output.contains { $0.hasPrefix("error:") })
    }

    @Test("the Offline Queue opens from the banner and the queue command, and Close closes it, keeping every message")
    func queueOpensAndCloses() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let status = await harness.run(
            """
            open c2
            network offline
            send first
            expect chat.notice == "Message queued - will send when online"
            expect queue.open == false
            banner review
            expect queue.open == true
            queue close
            expect queue.open == false
            expect queue.count == 1
            queue
            expect queue.open == true
            network online
            expect chat.notice == null
            queue send all
            expect queue.count == 0
            expect queue.open == false
            """)
        #expect(status == .success, "\(harness.output.joined(separator: "\n"))")
        #expect(harness.output.contains("closed: Offline Queue (1)"))
    }

    @Test("a Send All held offline goes as the device comes back, and the banner never says offline meanwhile")
    func durableSendAllResumesUnderAnOnlineBanner() async throws {
        let harness = try await AppTestsDriverHarness.started()
        await harness.expectScript("open c2\nnetwork offline\nsend first\nsend second\nqueue send all")

        let back = await harness.execute("network online")

        #expect(back.ok)
        #expect(!back.lines.contains { $0.hasPrefix("banner: You're offline") }, "\(back.lines)")
        #expect(back.lines.contains("banner: Connected"), "\(back.lines)")
        #expect(try await harness.number("queue.count") == 0)
    }

    @Test(
        "five messages offline, restart, online, Send All — all five at the backend in order, once",
        arguments: ["queue send all", "toast yes"])
    func story29(sendAll: String) async throws {
        // Given five messages composed offline, and an app restart.
        let harness = try await AppTestsDriverHarness.started()
        let before = try await harness.number("server.counts.c2")
        let texts = (1...5).map { "offline message \($0)" }
        await harness.expectScript("open c2\nnetwork offline\n" + texts.map { "send \($0)" }.joined(separator: "\n"))
        #expect(try await harness.state()["banner"]?["text"] == .string("You're offline. 5 messages queued."))
        #expect(await harness.execute("restart").lines == ["restarted: 5 pending message(s) reloaded"])
        #expect(try await harness.number("queue.count") == 5)
        #expect(try await harness.number("server.counts.c2") == before)

        // When the device comes back online and the user sends them all.
        await harness.expectScript(
            """
            network online
            expect toast.text == "Connected. Auto-send 5 queued messages?"
            \(sendAll)
            """)

        // Then the backend holds all five, once each, in compose order, and the queue is empty.
        let server = try await harness.server("c2")
        #expect(try await harness.number("server.counts.c2") == before + 5)
        #expect(Array(server.suffix(5).map(\.text)) == texts)
        #expect(Set(server.map(\.id)).count == server.count)
        #expect(try await harness.number("queue.count") == 0)
        #expect(try await harness.number("server.duplicatesIgnored") == 0)
        let chat = try await harness.state()["chat"]?["messages"]?.arrayValue ?? []
        #expect(chat.suffix(5).map { $0["status"] } == Array(repeating: .string("sent"), count: 5))
        #expect(chat.suffix(5).map { $0["text"]?.stringValue ?? "" } == texts)
    }

    // MARK: - Failures

    @Test("a failing line exits 1, names its line number and stops the script")
    func failureStopsScript() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let status = await harness.run(
            """
            # a comment, then a blank line

            open c2
            bogus command
            send never sent
            """)
        #expect(status == .commandFailed)
        #expect(harness.output.last == "error: line 4: unknown command 'bogus' (try 'help')")
        #expect(!harness.output.contains { $0.contains("never sent") })
        #expect(try await harness.number("server.counts.c2") == 3)
    }

    @Test("an expect that does not hold is a failure with its line number; without stopOnFailure the rest runs")
    func failedExpectation() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let status = await harness.run("open c2\nexpect chat.count == 4\nexpect chat.count == 3", stopOnFailure: false)
        #expect(status == .commandFailed)
        #expect(harness.output.contains("error: line 2: expectation failed: chat.count is 3, expected == 4"))
        #expect(harness.output.last == "ok: chat.count == 3")
    }

    @Test("commands that cannot be carried out fail, and change nothing")
    func commandsThatFail() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let failing = [
            "bogus", "send no chat is open", "more", "retry 1", "open", "open c2 c3", "open c999",
            "conversations all", "network", "network sideways", "network profile 5g", "network fail-rate 2",
            "network fail-rate -0.1", "network fail-rate lots", "toast", "toast maybe", "policy sometimes",
            "queue frobnicate", "queue send", "queue send 1", "queue edit 1", "queue delete 1", "queue delete abcd",
            "auth", "auth forever", "advance", "advance soon", "state now", "server", "server c999", "server c2 0",
            "server c2 x", "expect", "expect chat.count", "expect chat.count ~ 1", "expect no.such.path == 1",
            "restart now", "profile", "background now", "quit now",
        ]
        let before = try await harness.state().text
        for (offset, line) in failing.enumerated() {
            let result = await harness.execute(line, number: offset + 1)
            #expect(!result.ok, "\(line) should fail")
            #expect(result.lines.count == 1 && result.lines[0].hasPrefix("error: line \(offset + 1): "), "\(line)")
        }
        #expect(try await harness.state().text == before)
    }

    @Test("chat actions without their object fail: toast yes with no toast, retry/delete with no failed message")
    func nothingToActOn() async throws {
        let harness = try await AppTestsDriverHarness.started(running: "open c2\nsend hello")
        let toast = await harness.execute("toast yes", number: 3)
        #expect(toast.lines == ["error: line 3: no connectivity toast is showing"])
        for line in ["toast review", "toast dismiss", "retry 1", "delete 1", "retry 0", "retry abcd", "retry ab"] {
            #expect(await harness.execute(line).ok == false, "\(line)")
        }
        #expect(try await harness.number("chat.count") == 4)
    }

    // MARK: - Edges that succeed

    @Test("more at the start of a conversation and conversations more at the end succeed and change nothing")
    func edgesDoNothing() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: """
                open c2
                expect chat.count == 3
                expect chat.hasMore == false
                more
                expect chat.count == 3
                conversations
                expect conversations.count == 50
                conversations more
                conversations more
                expect conversations.count == 120
                expect conversations.hasMore == false
                conversations more
                expect conversations.count == 120
                expect conversations.items[-1].id == c120
                """)
        #expect(harness.output.contains("loaded 0 older message(s); 3 in all, Beginning of conversation"))
    }

    @Test("c1 pages back 50 at a time to its 1,000 messages, then more does nothing")
    func pagination() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: "open c1\nexpect chat.count == 50\nexpect chat.hasMore == true")
        for page in 2...20 {
            #expect(await harness.execute("more").ok)
            #expect(try await harness.number("chat.count") == page * 50)
        }
        await harness.expectScript(
            """
            expect chat.hasMore == false
            more
            expect chat.count == 1000
            expect server.counts.c1 == 1000
            """)
    }

    // MARK: - JSON output

    @Test("--json prints exactly one JSON object per command, successes and failures alike")
    func jsonOutput() async throws {
        let harness = try await AppTestsDriverHarness.started(json: true)
        let commands = [
            "help", "conversations", "conversations more", "open c2", "more", "send hi", "network offline",
            "send queued one", "queue", "bogus", "network online", "toast review", "queue send all", "policy auto",
            "network profile 3g", "network fail-rate 0.5", "network fail-rate 0", "network profile wifi",
            "profile name Maria", "auth expire", "auth renew", "advance 10s", "background", "foreground", "state",
            "server c2 5", "expect queue.count == 0", "expect queue.count == 9", "restart", "quit",
        ]
        let script = "# leading comment\n\n" + commands.joined(separator: "\n   \n")
        let status = await harness.run(script, stopOnFailure: false)
        #expect(status == .commandFailed)
        #expect(harness.output.count == commands.count)
        for (line, command) in zip(harness.output, commands) {
            let value = try JSONParser.parse(line)
            guard case .object = value else {
                Issue.record("\(command) printed \(line)")
                continue
            }
            if command == "bogus" || command == "expect queue.count == 9" {
                #expect(value["error"]?.stringValue != nil, "\(command)")
                #expect(value["line"] != nil, "\(command)")
            } else {
                #expect(value["error"] == nil, "\(command): \(line)")
            }
        }
        #expect(try JSONParser.parse(harness.output[24])["queue"]?["count"] == .int(0))
        #expect(try JSONParser.parse(harness.output[25])["messages"]?.arrayValue.count == 5)
    }

    // MARK: - Determinism

    @Test("the same script on two fresh data directories prints byte-identical output (flaky, fail-rate, advance)")
    func determinism() async throws {
        let script = """
            open c2
            network profile flaky
            policy auto
            send one
            send two
            send three
            network offline
            send four
            send five
            advance 3s
            network online
            advance 30s
            network fail-rate 0.4
            open c3
            send six
            send seven
            send eight
            network fail-rate 0
            queue send all
            advance 5m
            conversations
            queue
            state
            server c2 10
            server c3 10
            """
        var outputs: [[String]] = []
        for json in [false, true] {
            for _ in 0..<2 {
                let harness = try await AppTestsDriverHarness.started(json: json, seed: 7)
                await harness.run(script, stopOnFailure: false)
                outputs.append(harness.output)
                harness.close()
            }
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[2] == outputs[3])
        #expect(outputs[0].count > 20)
    }

    // MARK: - The data directory

    @Test("a second driver on a directory in use fails with StoreError.locked; DriverMain exits 3; free again after")
    func lockContention() async throws {
        let first = try await AppTestsDriverHarness.started()
        var options = DriverOptions()
        options.dataDirectory = first.directory
        options.clock = .virtual
        #expect(throws: StoreError.locked(path: first.directory.path)) {
            _ = try Driver(options: options, inputIsTerminal: false, write: { _ in })
        }
        let script = first.directory.appendingPathComponent("empty-script.txt")
        try Data().write(to: script)
        let status = await DriverMain.run(arguments: ["--data-dir", first.directory.path, "--script", script.path])
        #expect(status == Driver.ExitStatus.dataDirectoryUnavailable.rawValue)
        #expect(await first.execute("open c2").ok)

        first.close(keepDirectory: true)
        let second = try await AppTestsDriverHarness.reopened(first.directory)
        #expect(await second.execute("open c2").ok)
    }

    @Test("the data directory carries a session over: queued messages and the backend survive a new driver")
    func persistenceAcrossDrivers() async throws {
        let directory = try await AppTestsDriverHarness.directory(
            after: "open c3\nsend online one\nnetwork offline\nsend offline one")

        let second = try await AppTestsDriverHarness.reopened(directory)
        await second.expectScript(
            """
            expect network.online == false
            expect queue.count == 1
            expect queue.items[0].text == "offline one"
            network online
            queue send all
            expect queue.count == 0
            """)
        #expect(try await second.server("c3").suffix(2).map(\.text) == ["online one", "offline one"])
    }
}
