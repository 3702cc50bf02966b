import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

extension AppTestsChildProcesses {
    /// A real server killed and started again: the driver queues instead of failing, and sends when it is back.
    @Suite("HTTP outage", .removesTemporaryDirectories)
    struct HTTPOutageTests {
        @Test("a send while the server is dead is queued at once; the restarted server gets it by itself")
        func killedServerQueuesThenSends() throws {
            let root = AppTestsDriverHarness.temporaryDirectory()
            let serverDirectory = root.appendingPathComponent("server")
            let first = try AppTestsServerProcess(directory: serverDirectory)
            let port = first.port
            let driver = try AppTestsCourierProcess(
                arguments: [
                    "--data-dir", root.appendingPathComponent("me").path, "--fresh", "--json",
                    "--server", first.url,
                ])
            defer { driver.kill() }
            driver.send(["policy auto", "open c2"])
            #expect(driver.waitForLines(2))

            // The server dies; a send returns at once, queued, and the client says the server cannot be reached
            first.kill()
            let sentAt = Date()
            driver.send(["send during the outage", "state"])
            #expect(driver.waitForLines(4))
            let waited = Date().timeIntervalSince(sentAt)
            let state = driver.lines.last ?? ""
            #expect(waited < 5, "the send took \(waited) s")
            #expect(state.contains(#""reachable":false"#), "\(state)")
            #expect(state.contains(#""text":"during the outage","status":"queued""#), "\(state)")
            #expect(state.contains("Can't reach the server. 1 message queued."), "\(state)")

            // It comes back on the same port: the probe finds it and the automatic policy sends the message
            let second = try AppTestsServerProcess(directory: serverDirectory, port: port)
            defer { second.kill() }
            var delivered = false
            let deadline = Date().addingTimeInterval(15)
            var count = driver.lines.count
            while !delivered, Date() < deadline {
                driver.send(["state"])
                _ = driver.waitForLines(count + 1)
                count = driver.lines.count
                let latest = driver.lines.last ?? ""
                delivered =
                    latest.contains(#""reachable":true"#)
                    && latest.contains(#""text":"during the outage","status":"sent""#)
                if !delivered { usleep(200_000) }
            }
            #expect(delivered, "\(driver.lines.suffix(2))")
            driver.send(["quit"])
            let done = driver.finish()
            #expect(done.status == 0, "\(done.errors)")
        }
    }
}
