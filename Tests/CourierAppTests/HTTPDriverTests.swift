import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

extension AppTestsChildProcesses {
    /// With `--server`, connectivity is still the device's: offline queues, online sends to the real server.
    @Suite("HTTP driver", .removesTemporaryDirectories)
    struct HTTPDriverTests {
        @Test("network offline applies on the device side of --server")
        func offlineQueuesAndOnlineSendsToTheServer() throws {
            let run = try Self.driveAgainstServer(
                [
                    "open c2", "network offline", "send while away", "expect queue.count == 1",
                    "server c2 1", "network online", "queue send all", "expect queue.count == 0", "server c2 1",
                ])
            #expect(run.status == 0, "\(run.errors) \(run.lines)")
            let counts = run.lines.filter { $0.hasPrefix("server c2:") }
            #expect(counts == ["server c2: 3 message(s)", "server c2: 4 message(s)"])
            #expect(run.lines.last?.hasSuffix("me: while away") == true)
        }

        @Test("with --server the state document's server keys read nothing of the in-process backend")
        func serverKeysAreAbsentRatherThanWrong() throws {
            let run = try Self.driveAgainstServer(
                ["open c2", "send hi", "server c2 1", "state", "expect server.counts.c2 == 3"])
            // The server holds 4; the in-process backend's 3 is never offered as the server's count
            #expect(run.lines.contains("server c2: 4 message(s)"))
            let state = run.lines.first { $0.hasPrefix("{") } ?? ""
            #expect(state.contains("\"server\":{\"roundTrips\":"), "\(state.prefix(300))")
            #expect(!state.contains("\"counts\""))
            #expect(run.status == 1, "the expect on an absent key fails")
        }

        @Test("a real token expiry keeps what is queued; a renew sends it once, and the token is the user's alone")
        func anExpiryAndARenewKeepQueuedMessages() throws {
            // Given a driver signed in to a real server, when the server lets its token expire, two messages are
            // sent, and then it signs in again
            var tokenMode: mode_t?
            let run = try Self.driveAgainstServer(
                [
                    "open c2", "auth expire", "send while expired", "send second", "expect queue.count == 2",
                    "expect queue.items[1].status == queued", "auth renew", "expect queue.count == 0",
                    "expect chat.messages[-1].status == sent", "server c2 2",
                ]
            ) { client in
                var info = stat()
                if stat(client.appendingPathComponent("client/token").path, &info) == 0 { tokenMode = info.st_mode }
            }

            // Then both waited (queued, not failed) and went out once, in order, after the renew
            #expect(run.status == 0, "\(run.errors) \(run.lines)")
            #expect(run.lines.contains("server c2: 5 message(s)"))
            let stored = run.lines.suffix(2)
            #expect(stored.first?.hasSuffix("me: while expired") == true)
            #expect(stored.last?.hasSuffix("me: second") == true)
            // And the kept token is a file of its own, readable by its owner alone
            #expect(tokenMode.map { $0 & 0o777 } == 0o600)
        }

        /// Runs `input` through a fresh driver talking to a `courier-server` of its own, each in a temporary
        /// directory; `inspect` looks at the driver's data directory before both are removed.
        private static func driveAgainstServer(
            _ input: [String], inspect: (URL) throws -> Void = { _ in }
        ) throws -> (status: Int32, killed: Bool, lines: [String], errors: String) {
            let root = AppTestsDriverHarness.temporaryDirectory()
            let server = try AppTestsServerProcess(directory: root.appendingPathComponent("server"))
            defer { server.kill() }
            let client = root.appendingPathComponent("client")
            let run = try AppTestsCourierProcess.run(
                ["--data-dir", client.path, "--fresh", "--server", server.url], input: input)
            try inspect(client)
            return run
        }
    }
}
