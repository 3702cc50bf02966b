import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

extension AppTestsChildProcesses {
    /// Two people, two drivers, one `courier-server`: what one sends shows on the other's open chat by itself.
    @Suite("HTTP live chat", .removesTemporaryDirectories)
    struct HTTPLiveChatTests {
        @Test("me and ben chat live; a driver that was closed catches up on relaunch")
        func twoDriversChat() throws {
            let root = AppTestsDriverHarness.temporaryDirectory()
            let server = try AppTestsServerProcess(directory: root.appendingPathComponent("server"))
            defer { server.kill() }
            let meDirectory = root.appendingPathComponent("me").path
            let benDirectory = root.appendingPathComponent("ben").path

            // Me opens Ben's chat and stays there.
            let me = try AppTestsCourierProcess(
                arguments: ["--data-dir", meDirectory, "--fresh", "--user", "me", "--server", server.url])
            defer { me.kill() }
            me.send(["open c2"])
            #expect(me.waitForLines(4))

            // Ben sends from his own driver: it shows on me's open chat without any command of me's.
            let ben = try AppTestsCourierProcess.run(
                ["--data-dir", benDirectory, "--fresh", "--user", "ben", "--server", server.url],
                input: ["open c2", "send hello from ben"])
            #expect(ben.status == 0, "\(ben.errors) \(ben.lines)")
            #expect(waitUntil { me.lines.contains("  Now ben: hello from ben") }, "\(me.lines)")

            // Me answers and leaves; Ben's next launch catches up and finds the answer, read receipts included.
            me.send(["send hi ben", "expect chat.messages[-1].status >= sent", "quit"])
            let meDone = me.finish()
            #expect(meDone.status == 0, "\(meDone.errors) \(meDone.lines)")
            let again = try AppTestsCourierProcess.run(
                ["--data-dir", benDirectory, "--server", server.url],
                input: [
                    "open c2", "expect chat.messages[-1].text == \"hi ben\"",
                    "expect chat.messages[-2].text == \"hello from ben\"", "expect chat.messages[-2].status == read",
                ])
            #expect(again.status == 0, "\(again.errors) \(again.lines)")

            // The data directory is ben's: opening it as me is refused with exit status 3.
            let refused = try AppTestsCourierProcess.run(
                ["--data-dir", benDirectory, "--user", "me", "--server", server.url], input: ["state"])
            #expect(refused.status == 3)
            #expect(refused.errors.contains("belongs to ben, not me"))
        }

        @Test("a message deleted on my other device leaves my open chat through the server's feed, and stays gone")
        func deletedOnMyOtherDevice() throws {
            let root = AppTestsDriverHarness.temporaryDirectory()
            let server = try AppTestsServerProcess(directory: root.appendingPathComponent("server"))
            defer { server.kill() }
            let directory = root.appendingPathComponent("me").path

            // My phone sends into c2: the driver's open chat shows it as it arrives (waited for, not timed).
            let me = try AppTestsCourierProcess(
                arguments: ["--data-dir", directory, "--fresh", "--user", "me", "--server", server.url])
            defer { me.kill() }
            me.send(["open c2"])
            #expect(me.waitForLines(4))
            me.send(["peer me send c2 from my phone"])
            #expect(waitUntil { me.lines.contains("  Now me: from my phone  [Sent]") }, "\(me.lines)")

            // When my phone deletes it, then the chat no longer shows it and the server no longer holds it
            me.send(["peer me delete c2 1"])
            #expect(waitUntil { me.lines.contains { $0.hasPrefix("me deleted @") } }, "\(me.lines)")
            // (the deletion comes through the feed: the chat is opened again until it shows, up to 10 s)
            let gone = waitUntil {
                me.send(["open c2"])
                usleep(200_000)
                return me.lines.last { $0.hasPrefix("Ben (c2) — ") }?.hasPrefix("Ben (c2) — 3 message(s)") == true
            }
            #expect(gone, "\(me.lines)")
            me.send(["server c2 10", "quit"])
            let run = me.finish()
            #expect(run.status == 0, "\(run.errors) \(run.lines)")
            let after = run.lines.drop { !$0.hasPrefix("me deleted @") }
            #expect(!after.dropFirst().contains { $0.contains("from my phone") }, "\(run.lines)")
            #expect(after.contains { $0.hasSuffix("ben: Perfect, see you there.") }, "\(run.lines)")

            // A relaunch does not bring it back.
            let again = try AppTestsCourierProcess.run(
                ["--data-dir", directory, "--server", server.url],
                input: ["open c2", "expect chat.messages[-1].text != \"from my phone\"", "expect chat.count == 3"])
            #expect(again.status == 0, "\(again.errors) \(again.lines)")
        }

        /// Polls `condition` for up to 10 s of real time (a real server and two real processes).
        private func waitUntil(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while !condition() {
                if Date() > deadline { return false }
                usleep(2_000)
            }
            return true
        }
    }
}
