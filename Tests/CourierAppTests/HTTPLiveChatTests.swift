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
