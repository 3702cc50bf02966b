import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AppTestsChildProcesses {
    /// The real `courier` binary, SIGKILLed at seeded random moments while it queues and while it sends (docs/design.md
    /// invariants 1 and 2): after every kill a fresh `courier` on the same directory opens cleanly, every message
    /// whose `send` printed its result is in the queue or at the backend, and none is at the backend twice.
    @Suite("Crash", .removesTemporaryDirectories)
    struct CrashTests {
        private static let rounds = 20
        private static let conversations = ["c2", "c3"]

        /// What a fresh `courier` finds in the data directory.
        private struct Snapshot {
            var queued: [String] = []
            var server: [String: [(id: String, text: String)]] = [:]
        }

        @Test("SIGKILL while queueing and while sending loses no acknowledged message and duplicates none")
        func killRounds() throws {
            let directory = AppTestsDriverHarness.temporaryDirectory()
            var random = SeededRandom(seed: 0xC0FFEE)
            var acknowledged: [String] = []
            var composed = Set<String>()
            var kills = 0

            for round in 0..<Self.rounds {
                // Even rounds queue offline; odd rounds send online on 3g, starting with Send All.
                let queueing = round % 2 == 0
                var commands = ["open c2", queueing ? "network offline" : "network online"]
                if !queueing { commands += ["network profile 3g", "queue send all"] }
                for index in 0..<30 {
                    if index == 15 { commands.append("open c3") }
                    if !queueing, index == 20 { commands.append("queue send all") }
                    commands.append("send r\(round)-\(index)")
                }
                var arguments = ["--data-dir", directory.path, "--json"]
                if round == 0 { arguments.append("--fresh") }

                // When: the driver runs the commands and is killed at a seeded moment: after a seeded number of
                // answers, plus a few milliseconds, so the kill lands inside the next command's work (a durable
                // append, a request on 3g, a Send All) — and the load on the machine cannot make the test vacuous.
                let child = try AppTestsCourierProcess(arguments: arguments)
                #expect(child.send(commands))
                let answers = 1 + Int(random.next() % UInt64(commands.count - 1))
                #expect(child.waitForLines(answers), "round \(round): courier stopped answering")
                usleep(UInt32(random.next() % 4_000))
                child.kill()
                let result = child.finish()
                if result.killed { kills += 1 }

                // Each command prints exactly one JSON line, in order: the first N commands answered.
                for (command, line) in zip(commands, result.lines) {
                    let answer = try JSONParser.parse(line)
                    #expect(answer["error"] == nil, "round \(round): \(command) → \(line)")
                    if command.hasPrefix("send ") { acknowledged.append(String(command.dropFirst(5))) }
                }
                for command in commands where command.hasPrefix("send ") {
                    composed.insert(String(command.dropFirst(5)))
                }

                // Then: a fresh courier opens the directory and finds every acknowledged message, none twice.
                let snapshot = try snapshot(directory, round: round)
                check(snapshot, acknowledged: acknowledged, composed: composed, round: round)
            }
            #expect(kills >= Self.rounds / 2, "most rounds must end in a SIGKILL, not a clean exit")
            #expect(acknowledged.count >= 100, "too few acknowledged sends to prove anything")

            // Finally: online again, Send All delivers every acknowledged message exactly once.
            let final = try AppTestsCourierProcess.run(
                ["--data-dir", directory.path, "--json"],
                input: ["network online", "network profile wifi", "queue send all", "state"])
            #expect(final.status == 0, "\(final.errors)")
            let snapshot = try snapshot(directory, round: Self.rounds)
            #expect(snapshot.queued.isEmpty)
            let delivered = Set(snapshot.server.values.flatMap { $0.map(\.text) })
            #expect(acknowledged.allSatisfy(delivered.contains))
            check(snapshot, acknowledged: acknowledged, composed: composed, round: Self.rounds)
        }

        private func snapshot(_ directory: URL, round: Int) throws -> Snapshot {
            let lines = ["state"] + Self.conversations.map { "server \($0) 1000" }
            let run = try AppTestsCourierProcess.run(["--data-dir", directory.path, "--json"], input: lines)
            #expect(run.status == 0 && !run.killed, "round \(round): reopening failed: \(run.errors)")
            #expect(run.lines.count == lines.count, "round \(round): \(run.lines)")
            guard run.lines.count == lines.count else { return Snapshot() }
            var snapshot = Snapshot()
            let state = try JSONParser.parse(run.lines[0])
            snapshot.queued = state["queue"]?["items"]?.arrayValue.compactMap { $0["text"]?.stringValue } ?? []
            for (conversation, line) in zip(Self.conversations, run.lines.dropFirst()) {
                snapshot.server[conversation] = try JSONParser.parse(line)["messages"]?.arrayValue.map { message in
                    (id: message["id"]?.stringValue ?? "", text: message["text"]?.stringValue ?? "")
                }
            }
            return snapshot
        }

        private func check(_ snapshot: Snapshot, acknowledged: [String], composed: Set<String>, round: Int) {
            let atServer = snapshot.server.values.flatMap { $0 }
            let found = Set(snapshot.queued).union(atServer.map(\.text))
            let lost = acknowledged.filter { !found.contains($0) }
            #expect(lost.isEmpty, "round \(round): acknowledged but lost: \(lost)")
            #expect(Set(atServer.map(\.id)).count == atServer.count, "round \(round): an id is at the backend twice")
            let ours = atServer.map(\.text).filter(composed.contains)
            #expect(Set(ours).count == ours.count, "round \(round): a message is at the backend twice")
            #expect(Set(snapshot.queued).count == snapshot.queued.count, "round \(round): a message is queued twice")
        }
    }
}
