import CourierData
import CourierDomain
import CourierHTTP
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

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
        /// Waits, 50 ms at a time and at most 600 looks, until some process holds the outbox's lease of `directory`
        /// (a probe here cannot take it); false when none did.
        private static func leaseIsHeld(in directory: URL) async -> Bool {
            let probe = OutboxLease(
                path: directory.appendingPathComponent("client/outbox.lease").path, fileSystem: PosixFileSystem())
            for _ in 0..<600 {
                let free = (try? probe.tryTake()) == true
                probe.release()
                if !free { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        private static func outbox(in directory: URL) throws -> [Message] {
            let store = try FileOutboxStore(directory: directory.appendingPathComponent("client"), access: .guest)
            defer { store.close() }
            return store.all()
        }

        @Test(
            "2 and 8 processes sending at once: every message once, each process's compose order kept",
            arguments: [
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
            // And no two compose stamps are equal though every process read one clock (each stamped after the
            // conversation's mark, read under the append lock), and each writer's messages stand in compose order in
            // the order it sent them
            let stamps = messages.map(\.timestamp)
            #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
            for writer in 0..<writers {
                let mine = messages.filter { $0.text.hasPrefix("w\(writer)-") }.sorted(by: Message.composeOrder)
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

            // Then its next command finds the message in the open chat and, composed while the app is online, sends
            // it as one composed in the app would be (manual policy or not): the Offline Queue is empty after it, and
            // the chat shows it sent
            driver.send(["queue", "open c2"])
            driver.closeInput()
            let result = driver.finish()
            #expect(result.status == 0)
            #expect(result.lines.contains { $0.contains("me: from the extension") && $0.contains("[Sent]") })
            #expect(result.lines.contains { $0.contains("Offline Queue (0)") })
            #expect(!result.lines.contains { $0.contains("[Queued] Ben") })
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

            // Then the open chat prints the message's row, with nothing typed: within about a second when the machine is
            // free (real time: a real child); the bound is for a starved whole-suite run
            let deadline = Date().addingTimeInterval(30)
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

        // MARK: - The lease: who sends

        /// A `courier-server` of its own, and a data directory a driver opened once against it (so the directory has
        /// an owner and a kept token). The suite's trait removes both folders; `close()` stops the server.
        private struct ServedDirectory {
            let server: AppTestsServerProcess
            let directory: URL

            init() throws {
                server = try AppTestsServerProcess(
                    directory: AppTestsDriverHarness.temporaryDirectory().appendingPathComponent("server"))
                directory = AppTestsDriverHarness.temporaryDirectory()
                let run = try AppTestsCourierProcess.run(
                    ["--data-dir", directory.path, "--fresh", "--server", server.url], input: ["queue"])
                #expect(run.status == 0)
            }

            /// The driver's arguments for this directory and server.
            var arguments: [String] { ["--data-dir", directory.path, "--server", server.url] }

            /// Runs a one-shot `send` of `text` into `conversation` to its end.
            func oneShot(_ text: String, to conversation: String = "c2") throws
                -> (status: Int32, killed: Bool, lines: [String], errors: String)
            {
                try AppTestsCourierProcess.run(arguments + ["send", conversation, text], input: [])
            }

            /// The texts of `conversation` as the server stores them, in its order.
            func stored(in conversation: ConversationID) async throws -> [String] {
                let client = HTTPChatClient(
                    baseURL: try #require(URL(string: server.url)), user: "me", password: "courier",
                    timeout: .seconds(120))
                return try await client.messages(in: conversation, before: nil, limit: 200).messages.map(\.text)
            }

            func close() { server.kill() }
        }

        @Test("with no driver running, a one-shot send takes the lease and sends its message itself, once")
        func aOneShotWithTheLeaseFreeSendsItself() async throws {
            // Given a server and a data directory no driver runs on
            let served = try ServedDirectory()
            defer { served.close() }

            // When an extension sends a reply
            let run = try served.oneShot("reply from the lock screen")

            // Then it printed the id, the server holds the message once, and nothing waits in the outbox
            #expect(run.status == 0 && run.lines.count == 1, "\(run.errors)")
            #expect(try await served.stored(in: "c2").filter { $0 == "reply from the lock screen" }.count == 1)
            #expect(try Self.outbox(in: served.directory).isEmpty)
        }

        @Test("with a driver running, a one-shot send hands its message to it and sends nothing itself")
        func aOneShotBesideTheOwnerHandsOver() async throws {
            // Given a driver running against a server, a chat open
            let served = try ServedDirectory()
            defer { served.close() }
            let driver = try AppTestsCourierProcess(arguments: served.arguments)
            driver.send(["open c2"])
            #expect(driver.waitForLines(4))
            // Its outbox holds the lease (a loaded machine may print before it took it)
            #expect(await Self.leaseIsHeld(in: served.directory))

            // When an extension sends beside it
            let run = try served.oneShot("handed over")
            #expect(run.status == 0 && run.lines.count == 1)

            // Then the server does not have it yet: the owner (manual policy) queued it, and its Send All sends it
            #expect(try await served.stored(in: "c2").contains("handed over") == false)
            driver.send(["queue send all", "expect queue.count == 0"])
            driver.closeInput()
            let result = driver.finish()
            #expect(result.status == 0, "\(result.errors)")
            #expect(try await served.stored(in: "c2").filter { $0 == "handed over" }.count == 1)
        }

        @Test("with the driver in the background, a one-shot send takes the lease and sends; back in front, it sends")
        func theLeaseFollowsTheDriversForeground() async throws {
            // Given a driver against a server, gone to the background
            let served = try ServedDirectory()
            defer { served.close() }
            let driver = try AppTestsCourierProcess(arguments: served.arguments)
            driver.send(["open c2", "background", "queue"])
            #expect(driver.waitForLines(6))

            // When an extension replies
            let run = try served.oneShot("sent by the extension")

            // Then it sent the reply itself, once
            #expect(run.status == 0 && run.lines.count == 1, "\(run.errors)")
            #expect(try await served.stored(in: "c2").filter { $0 == "sent by the extension" }.count == 1)

            // And back in front the driver holds the lease again: what it sends goes out at once
            driver.send(["foreground", "send from the app", "expect queue.count == 0"])
            driver.closeInput()
            let result = driver.finish()
            #expect(result.status == 0, "\(result.errors) \(result.lines.suffix(4))")
            #expect(try await served.stored(in: "c2").suffix(2) == ["sent by the extension", "from the app"])
        }

        @Test(
            "an owner killed mid-send at random instants: the next owner sends every acknowledged message once, in order"
        )
        func anOwnerKilledMidSendIsTakenOver() async throws {
            let served = try ServedDirectory()
            defer { served.close() }
            let directory = served.directory
            var random = SeededRandom(seed: 2_222)
            var shown: [String] = []
            for round in 0..<6 {
                // Given a driver on a slow network (each send about 300 ms) sending six messages, one per command
                let driver = try AppTestsCourierProcess(arguments: served.arguments)
                let texts = (0..<6).map { "r\(round)-\($0)" }
                driver.send(["network profile 3g", "open c3"] + texts.map { "send \($0)" })
                // When it is SIGKILLed at a random instant once its first message is composed durably, most likely
                // mid-send (waited for, bounded: a loaded machine reads the commands late, and a kill before the
                // first compose would test nothing)
                #expect(driver.waitForLines(3))
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline,
                    !((try? Self.outbox(in: directory)) ?? []).contains(where: { texts.contains($0.text) })
                {
                    usleep(10_000)
                }
                usleep(UInt32.random(in: 0...1_200_000, using: &random))
                driver.kill()
                let result = driver.finish()
                // (a row is printed once its send has ended)
                shown += texts.filter { text in result.lines.contains { $0.contains("me: \(text)") } }
            }
            // What the killed owners left: messages composed durably and not sent (each owner's open queues again
            // the send its predecessor's kill cut off, so only the last one's can still read `sending`)
            let left = try Self.outbox(in: directory)
            #expect(!left.isEmpty, "no kill landed before a send ended")

            // And the next owner takes over: the sends cut off are queued again and Send All sends them, same ids
            let next = try AppTestsCourierProcess.run(
                served.arguments, input: ["queue send all", "expect queue.count == 0"])
            #expect(next.status == 0, "\(next.errors) \(next.lines.suffix(5))")

            // Then every message shown or left behind is at the server exactly once, each in its compose order
            let atServer = try await served.stored(in: "c3").filter { $0.hasPrefix("r") }
            for text in shown + left.map(\.text) {
                #expect(atServer.filter { $0 == text }.count == 1, "\(text): \(atServer)")
            }
            #expect(Set(atServer).count == atServer.count)
            #expect(try Self.outbox(in: directory).isEmpty)
            let order = { (text: String) in text.dropFirst().split(separator: "-").compactMap { Int($0) } }
            #expect(atServer.map(order) == atServer.map(order).sorted { $0.lexicographicallyPrecedes($1) })
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
