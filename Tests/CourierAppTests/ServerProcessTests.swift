import CourierTestSupport
import Foundation
import Testing

extension AppTestsChildProcesses {
    /// `courier-server`'s invocation: bad options exit 2, a data directory another server holds exits 3.
    @Suite("courier-server invocation", .removesTemporaryDirectories)
    struct ServerProcessTests {
        @Test("bad options are exit 2")
        func badOptions() throws {
            let directory = AppTestsDriverHarness.temporaryDirectory()
            let path = directory.path
            let invocations = [
                [], ["--port", "8080"], ["--data-dir", path, "--port", "http"],
                ["--data-dir", path, "--port", "70000"],
                ["--data-dir"], ["--bind", "0.0.0.0"],
            ]
            for arguments in invocations {
                #expect(try AppTestsServerProcess.exitStatus(arguments) == 2, "\(arguments)")
            }
        }

        @Test("a second server on the same data directory is exit 3")
        func lockedDirectory() throws {
            let directory = AppTestsDriverHarness.temporaryDirectory()
            let first = try AppTestsServerProcess(directory: directory)
            defer { first.kill() }
            #expect(try AppTestsServerProcess.exitStatus(["--data-dir", directory.path]) == 3)
        }
    }
}
