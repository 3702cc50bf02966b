import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// Message identity and conversation order through the driver, across lost settings, seeds, restarts and clocks.
@Suite("Driver identity and order", .removesTemporaryDirectories)
@MainActor
struct DriverIdentityTests {
    /// Sends `texts` in `conversation` in a driver on `directory`, then closes it (keeping the directory).
    private func session(
        _ directory: URL, seed: UInt64 = 1, fresh: Bool = false, clock: ClockMode = .virtual, script: String
    ) async throws {
        let harness = try await AppTestsDriverHarness.started(
            directory: directory, seed: seed, fresh: fresh, clock: clock)
        await harness.expectScript(script)
        harness.close(keepDirectory: true)
    }

    private func sends(_ texts: [String], in conversation: String = "c2") -> String {
        (["open \(conversation)"] + texts.map { "send \($0)" }).joined(separator: "\n")
    }

    @Test("settings lost between runs (world.json deleted): new messages get new ids; the backend holds every one")
    func idsAfterSettingsLoss() async throws {
        // Given five messages sent, then the settings file deleted (what a user does after "damaged settings")
        let directory = AppTestsDriverHarness.temporaryDirectory()
        let first = (1...5).map { "before \($0)" }
        try await session(directory, fresh: true, script: sends(first))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("world.json"))

        // When six more are sent on the same directory
        let second = (1...6).map { "after \($0)" }
        try await session(directory, script: sends(second))

        // Then the backend holds all eleven, each once, with no write dropped as a duplicate
        let harness = try await AppTestsDriverHarness.reopened(directory)
        let stored = try await harness.server("c2")
        #expect(Array(stored.map(\.text).suffix(11)) == first + second)
        #expect(Set(stored.map(\.id)).count == stored.count)
        #expect(try await harness.number("server.duplicatesIgnored") == 0)
    }

    @Test("another seed, then many restarts on the first seed: no id repeats, the backend holds every message")
    func idsAcrossSeedsAndRestarts() async throws {
        // Given messages sent with seed 2
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try await session(directory, seed: 2, fresh: true, script: sends(["two a", "two b"]))

        // When seed 1 sends over 32 runs (enough for a seed + launch-count scheme to meet seed 2's first launch),
        // every eighth run also restarting the app in the middle
        var texts = ["two a", "two b"]
        for run in 1...32 {
            let restart = run.isMultiple(of: 8) ? "\nrestart\nsend again \(run)" : ""
            try await session(directory, script: sends(["one \(run)"]) + restart)
            texts += ["one \(run)"] + (restart.isEmpty ? [] : ["again \(run)"])
        }

        // Then every message is at the backend once, in the order sent
        let harness = try await AppTestsDriverHarness.reopened(directory)
        let stored = try await harness.server("c2")
        #expect(Array(stored.map(\.text).suffix(texts.count)) == texts)
        #expect(Set(stored.map(\.id)).count == stored.count)
        #expect(try await harness.number("server.duplicatesIgnored") == 0)
    }

    @Test("two new directories with the same seed print the same output, ids included")
    func aSeedStillReplaysOnANewDirectory() async throws {
        // Given one script that shows message ids (the Offline Queue lists their prefixes) across a restart
        let script = "network offline\n" + sends(["one", "two"]) + "\nrestart\nsend three\nqueue"
        var outputs: [[String]] = []
        for _ in 0..<2 {
            // When it runs on a new directory
            let harness = try await AppTestsDriverHarness.started(seed: 5)
            await harness.expectScript(script)
            outputs.append(harness.output)
            harness.close()
        }
        // Then both runs printed the same lines
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].contains { $0.contains("three") })
    }

    @Test("a clock that goes backwards between sessions does not reorder: the backend keeps compose order")
    func backwardsClockKeepsComposeOrder() async throws {
        // Given "first" sent a year ahead on the virtual clock
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try await session(directory, fresh: true, script: "background\nadvance 365d\nforeground\nopen c3\nsend first")

        // When a session on the system clock (a year earlier) sends "second"
        try await session(directory, clock: .system, script: "open c3\nsend second")

        // Then the backend stores "first" before "second": "second" is stamped a millisecond after "first", although
        // its clock read a year earlier
        let harness = try await AppTestsDriverHarness.reopened(directory)
        let stored = try await harness.server("c3")
        #expect(Array(stored.map(\.text).suffix(2)) == ["first", "second"])
        let messages = Array(harness.driver.world.backend.messages(in: "c3").suffix(2))
        #expect(messages.count == 2 && messages[1].timestamp == messages[0].timestamp + 0.001)
    }

    @Test("an id the backend holds with other text: the send fails as a conflict, shown failed, never sent")
    func idConflictThroughTheDriver() async throws {
        // Given a new directory whose first message id (seed 1) the backend already holds with other text
        let harness = try await AppTestsDriverHarness.started(seed: 1)
        let taken = IDNamespace.seeded(1).id(at: 0)
        let backend = harness.driver.world.backend
        try backend.receive(
            Message(id: taken, conversationID: "c2", senderID: "me", text: "other", timestamp: Date(), status: .sent))

        // When the user sends a message
        await harness.expectScript("open c2\nsend hello")

        // Then it is that id, failed (tapping it offers Retry or Delete), the chat shows the conflict's text
        let state = try await harness.state()
        #expect(state["chat"]?["messages"]?.arrayValue.last?["id"] == .string(taken.rawValue))
        #expect(state["chat"]?["messages"]?.arrayValue.last?["text"] == .string("hello"))
        #expect(state["chat"]?["messages"]?.arrayValue.last?["status"] == .string("failed"))
        #expect(
            state["chat"]?["error"]
                == .string("A different message was already sent with this ID. Delete it and send it again."))
        #expect(await harness.execute("tap 1").ok)
        // And the backend still holds its own message, untouched, with no duplicate counted
        #expect(backend.message(taken)?.text == "other")
        #expect(try await harness.number("server.duplicatesIgnored") == 0)
    }
}
