@testable import CourierApp
import CourierDomain
import Foundation
import Testing

extension AppTestsChildProcesses {
    /// With `--server`, connectivity is still the device's: offline queues, online sends to the real server.
    @Suite("HTTP driver")
    struct HTTPDriverTests {
        @Test("network offline applies on the device side of --server")
        func offlineQueuesAndOnlineSendsToTheServer() throws {
            let root = AppTestsDriverHarness.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            let server = try AppTestsServerProcess(directory: root.appendingPathComponent("server"))
            defer { server.kill() }
            let run = try AppTestsCourierProcess.run(
                ["--data-dir", root.appendingPathComponent("client").path, "--fresh", "--server", server.url],
                input: [
                    "open c2", "network offline", "send while away", "expect queue.count == 1",
                    "server c2 1", "network online", "queue send all", "expect queue.count == 0", "server c2 1",
                ])
            #expect(run.status == 0, "\(run.errors) \(run.lines)")
            let counts = run.lines.filter { $0.hasPrefix("server c2:") }
            #expect(counts == ["server c2: 3 message(s)", "server c2: 4 message(s)"])
            #expect(run.lines.last?.hasSuffix("me: while away") == true)
        }
    }
}
