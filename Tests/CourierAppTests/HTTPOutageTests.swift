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
            let deadline = Date().addingTimeInterval(60)
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

        @Test(
            "a frozen server (SIGSTOP) is unreachable within the bound; the unanswered send is not editable and goes once"
        )
        func frozenServerIsAConnectionStateAndNoEditIsLost() throws {
            let root = AppTestsDriverHarness.temporaryDirectory()
            let server = try AppTestsServerProcess(directory: root.appendingPathComponent("server"))
            defer {
                server.thaw()
                server.kill()
            }
            let driver = try AppTestsCourierProcess(
                arguments: [
                    "--data-dir", root.appendingPathComponent("me").path, "--fresh", "--json", "--server", server.url,
                ])
            defer { driver.kill() }
            driver.send(["policy auto", "open c2"])
            #expect(driver.waitForLines(2))

            // The server freezes: it accepts and answers nothing. The send returns within the bound, queued and
            // unconfirmed (it may have arrived), never failed, and the banner says the server cannot be reached
            server.freeze()
            let sentAt = Date()
            driver.send(["send version A", "state"])
            #expect(driver.waitForLines(4, timeout: 60))
            let waited = Date().timeIntervalSince(sentAt)
            let state = driver.lines.last ?? ""
            #expect(waited < 30, "the send took \(waited) s; the bound is 5 s (the old build took 46.7 s)")
            #expect(state.contains(#""reachable":false"#), "\(state)")
            #expect(state.contains(#""text":"version A","status":"queued""#), "\(state)")
            #expect(state.contains("Not confirmed - will check with the server"), "\(state)")
            #expect(state.contains("Can't reach the server. 1 message queued."), "\(state)")

            // An edit is refused with a clear text, and nothing changes (a failed command ends a piped session)
            driver.send(["queue edit 1 version B"])
            #expect(driver.waitForLines(5, timeout: 60))
            let refusal = driver.lines.last ?? ""
            #expect(refusal.contains("may already have reached the server, so it can't be edited"), "\(refusal)")
            #expect(driver.finish().status == 1)

            // The server thaws; the app is launched again: the message is still unconfirmed, and the policy sends
            // it, once, as typed
            server.thaw()
            let relaunched = try AppTestsCourierProcess(
                arguments: ["--data-dir", root.appendingPathComponent("me").path, "--json", "--server", server.url])
            defer { relaunched.kill() }
            relaunched.send(["policy auto", "open c2"])
            #expect(relaunched.waitForLines(2, timeout: 60))
            var settled = ""
            let deadline = Date().addingTimeInterval(90)
            var count = relaunched.lines.count
            while settled.isEmpty, Date() < deadline {
                relaunched.send(["state"])
                _ = relaunched.waitForLines(count + 1, timeout: 60)
                count = relaunched.lines.count
                let latest = relaunched.lines.last ?? ""
                if latest.contains(#""reachable":true"#), latest.contains(#""text":"version A","status":"sent""#) {
                    settled = latest
                } else {
                    usleep(250_000)
                }
            }
            #expect(!settled.isEmpty, "\(relaunched.lines.suffix(2))")
            #expect(!settled.contains("version B"), "\(settled)")
            // The server holds it once: the frozen server stored the first PUT when it woke, the resend was a no-op
            relaunched.send(["server c2 50"])
            #expect(relaunched.waitForLines(count + 1, timeout: 60))
            let stored = relaunched.lines[count...].joined(separator: "\n")
            #expect(stored.components(separatedBy: "version A").count - 1 == 1, "\(stored)")
            relaunched.send(["quit"])
            let done = relaunched.finish()
            #expect(done.status == 0, "\(done.errors)")
        }
    }
}
