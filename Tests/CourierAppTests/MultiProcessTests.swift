@testable import CourierApp
import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

extension AppTestsChildProcesses {
    /// One data directory, several real `courier` processes (issue 22): one-shot `send`s, as app extensions make,
    /// compose into the shared outbox at once and beside a running driver (docs/reliability.md, "Several processes").
    @Suite("Multi-process", .removesTemporaryDirectories)
    struct MultiProcessTests {
        /// A data directory a driver has opened once (so it has an owner) and closed.
        private static func preparedDirectory() throws -> URL {
            let directory = AppTestsDriverHarness.temporaryDirectory()
            let run = try AppTestsCourierProcess.run(["--data-dir", directory.path, "--fresh"], input: ["queue"])
            #expect(run.status == 0)
            return directory
        }

        /// Runs one `courier send` to its end.
        private static func send(_ text: String, in directory: URL, to conversation: String = "c2") throws
            -> (status: Int32, killed: Bool, lines: [String], errors: String)
        {
            try AppTestsCourierProcess.run(["--data-dir", directory.path, "send", conversation, text], input: [])
        }

        /// The outbox as a fresh open finds it.
        private static func outbox(in directory: URL) throws -> [Message] {
            let store = try FileOutboxStore(directory: directory.appendingPathComponent("client"), access: .guest)
            defer { store.close() }
            return store.all()
        }

        @Test("2 and 8 processes sending at once: every message once, each process's compose order kept", arguments: [
            (2, 8), (8, 3),
        ])
        func concurrentSenders(writers: Int, each: Int) throws {
            // Given a data directory
            let directory = try Self.preparedDirectory()

            // When `writers` threads each run `each` one-shot sends, one after the other, all at the same time
            let printed = LockedBox<[String: String]>([:])
            let failures = LockedBox<[String]>([])
            let group = DispatchGroup()
            for writer in 0..<writers {
                group.enter()
                Thread {
                    defer { group.leave() }
                    for index in 0..<each {
                        let text = "w\(writer)-\(index)"
                        let run = try? Self.send(text, in: directory)
                        guard let run, run.status == 0, run.lines.count == 1 else {
                            failures.mutate { $0.append(text) }
                            continue
                        }
                        printed.mutate { $0[text] = run.lines[0] }
                    }
                }.start()
            }
            group.wait()

            // Then every send succeeded and printed its own id, and the outbox holds each message exactly once
            #expect(failures.value.isEmpty)
            let messages = try Self.outbox(in: directory)
            #expect(messages.count == writers * each)
            #expect(Set(messages.map(\.id.rawValue)) == Set(printed.value.values))
            for message in messages { #expect(printed.value[message.text] == message.id.rawValue) }
            // And the compose sequences are unique, and each writer's messages are in the order it sent them
            let sequences = messages.map(\.sequence)
            #expect(Set(sequences).count == sequences.count)
            for writer in 0..<writers {
                let mine = messages.filter { $0.text.hasPrefix("w\(writer)-") }.sorted { $0.sequence < $1.sequence }
                #expect(mine.map(\.text) == (0..<each).map { "w\(writer)-\($0)" })
            }
        }

        @Test("a running driver shows another process's message at its next command (virtual clock)")
        func runningDriverTakesInAtNextCommand() throws {
            // Given a driver running on the directory, a chat open
            let directory = try Self.preparedDirectory()
            let driver = try AppTestsCourierProcess(arguments: ["--data-dir", directory.path])
            driver.send(["open c2"])
            #expect(driver.waitForLines(4))

            // When a one-shot send composes beside it
            let run = try Self.send("from the extension", in: directory)
            #expect(run.status == 0)

            // Then its next command finds the message in the open chat and in the Offline Queue
            driver.send(["queue"])
            driver.closeInput()
            let result = driver.finish()
            #expect(result.status == 0)
            #expect(result.lines.contains { $0.contains("me: from the extension") && $0.contains("[Queued]") })
            #expect(result.lines.contains { $0.contains("[Queued] Ben") && $0.contains("from the extension") })
        }

        @Test("a running driver on the system clock shows another process's message within a second, by itself")
        func runningDriverTakesInByItself() throws {
            // Given a driver on the system clock with a chat open
            let directory = try Self.preparedDirectory()
            let driver = try AppTestsCourierProcess(arguments: ["--data-dir", directory.path, "--clock", "system"])
            driver.send(["open c2"])
            #expect(driver.waitForLines(4))
            let before = driver.lines.count

            // When a one-shot send composes beside it, and nothing is typed
            let run = try AppTestsCourierProcess.run(
                ["--data-dir", directory.path, "--clock", "system", "send", "c2", "while you wait"], input: [])
            #expect(run.status == 0)

            // Then the open chat prints the message's row within about a second (real time: a real child)
            let deadline = Date().addingTimeInterval(5)
            let shown = { driver.lines.dropFirst(before).contains { $0.contains("while you wait") } }
            while Date() < deadline, !shown() { usleep(20_000) }
            #expect(driver.lines.dropFirst(before).contains { $0.contains("me: while you wait") })
            driver.closeInput()
            #expect(driver.finish().status == 0)
        }

        @Test("one-shot senders killed at random instants lose no acknowledged message and leave the log usable")
        func killedSenders() throws {
            let directory = try Self.preparedDirectory()
            var random = SeededRandom(seed: 22)
            var acknowledged: [String: String] = [:]
            for round in 0..<16 {
                // When a one-shot send is SIGKILLed after a random few milliseconds (or finishes first)
                let child = try AppTestsCourierProcess(
                    arguments: ["--data-dir", directory.path, "send", "c3", "k\(round)"])
                child.closeInput()
                usleep(UInt32.random(in: 0...60_000, using: &random))
                child.kill()
                let result = child.finish()
                if let id = result.lines.first, id.count == 36 { acknowledged["k\(round)"] = id }
            }
            // Then a send afterwards works (no lock is left held, the log reads), and every acknowledged message is
            // there, once, with its printed id
            #expect(try Self.send("after", in: directory, to: "c3").status == 0)
            let messages = try Self.outbox(in: directory)
            #expect(Set(messages.map(\.id)).count == messages.count)
            for (text, id) in acknowledged {
                #expect(messages.filter { $0.text == text }.map(\.id.rawValue) == [id])
            }
            #expect(messages.contains { $0.text == "after" })
        }
    }
}

/// A value several threads change under a lock.
private final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func mutate(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
