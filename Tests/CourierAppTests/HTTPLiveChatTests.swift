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

            // My phone sends into c2 and deletes it; the driver's open chat shows it, then not.
            let run = try AppTestsCourierProcess.run(
                ["--data-dir", directory, "--fresh", "--user", "me", "--server", server.url],
                input: [
                    "open c2", "peer me send c2 from my phone", "expect chat.messages[-1].text == \"from my phone\"",
                    "peer me delete c2 1", "expect chat.messages[-1].text != \"from my phone\"", "server c2 10",
                ])
            #expect(run.status == 0, "\(run.errors) \(run.lines)")
            #expect(run.lines.contains { $0.hasPrefix("me deleted @") }, "\(run.lines)")
            // The server no longer holds it: its listing, after the deletion, names three messages and not it.
            let listing = run.lines.drop { !$0.hasPrefix("me deleted @") }
            #expect(!listing.contains { $0.hasSuffix("me: from my phone") }, "\(run.lines)")
            #expect(listing.contains { $0.hasSuffix("ben: Perfect, see you there.") }, "\(run.lines)")

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
