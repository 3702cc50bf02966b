import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

extension AppTestsChildProcesses {
    /// The real `courier` talking HTTP to a real `courier-server` that is SIGKILLed while messages are on the way and
    /// restarted on the same port: every message whose `send` was acknowledged reaches the server exactly once, in
    /// compose order — a write applied just before the kill and resent afterwards is not stored twice.
    @Suite("HTTP crash", .removesTemporaryDirectories)
    struct HTTPCrashTests {
        private static let sends = 24
        private static let killAfterAnswers = [4, 10, 16]

        @Test("SIGKILL of courier-server mid-send: every acknowledged message stored once, in compose order")
        func serverKilledWhileSending() throws {
            let root = AppTestsDriverHarness.temporaryDirectory()
            let serverDirectory = root.appendingPathComponent("server")
            let clientDirectory = root.appendingPathComponent("client")

            // Given a server, and a driver on the automatic policy sending into c2 through it
            var server = try AppTestsServerProcess(directory: serverDirectory)
            let port = server.port
            let texts = (0..<Self.sends).map { "k-\($0)" }
            let commands = ["policy auto", "open c2"] + texts.map { "send \($0)" }
            let driver = try AppTestsCourierProcess(
                arguments: ["--data-dir", clientDirectory.path, "--fresh", "--json", "--server", server.url])
            #expect(driver.send(commands))
            driver.closeInput()

            // When the server is killed three times while the sends go on, and comes back on the same port
            for answers in Self.killAfterAnswers {
                #expect(driver.waitForLines(answers, timeout: 60), "courier stopped answering")
                server.kill()
                usleep(150_000)
                server = try AppTestsServerProcess(directory: serverDirectory, port: port)
            }
            let run = driver.finish(timeout: 90)
            #expect(run.status == 0, "\(run.errors)")
            var acknowledged: [String] = []
            for (command, line) in zip(commands, run.lines) {
                let answer = try JSONParser.parse(line)
                #expect(answer["error"] == nil, "\(command) → \(line)")
                if command.hasPrefix("send "), answer["error"] == nil {
                    acknowledged.append(String(command.dropFirst(5)))
                }
            }
            #expect(acknowledged.count == Self.sends)

            // Then, once anything the outage left failed is sent again, the server holds each exactly once, in order
            let check = try AppTestsCourierProcess.run(
                ["--data-dir", clientDirectory.path, "--json", "--server", server.url], input: ["state"])
            let state = try JSONParser.parse(check.lines.first ?? "{}")
            let queued = state["queue"]?["count"] != .number(0)
            let final = try AppTestsCourierProcess.run(
                ["--data-dir", clientDirectory.path, "--json", "--server", server.url],
                input: (queued ? ["queue send all"] : []) + ["state", "server c2 1000"])
            #expect(final.status == 0, "\(final.errors) \(final.lines)")
            let finalState = try JSONParser.parse(final.lines.dropLast().last ?? "{}")
            #expect(finalState["queue"]?["count"] == .number(0))
            let stored = try JSONParser.parse(final.lines.last ?? "{}")["messages"]?.arrayValue ?? []
            let ours = stored.compactMap { $0["text"]?.stringValue }.filter { $0.hasPrefix("k-") }
            #expect(ours == acknowledged, "stored once each, in compose order")
            let ids = stored.compactMap { $0["id"]?.stringValue }
            #expect(Set(ids).count == ids.count)
            server.kill()
        }
    }
}
