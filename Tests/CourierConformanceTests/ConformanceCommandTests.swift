import Foundation
import Testing

/// The real `courier-conformance` executable: its exit statuses. (A passing run is `ConformanceKitTests`'s, in
/// process: this test's thread would block the main queue an in-process server answers on.)
@Suite struct ConformanceCommandTests {
    @Test func badOptionsExit2WithTheUsage() throws {
        // Given a command line without a password
        // When the executable runs with it
        let run = try ConformanceBinary.run(["--server", "http://127.0.0.1:9", "--user", "me"])

        // Then it exits 2, saying what is wrong and how to call it, and checks nothing
        #expect(run.status == 2)
        #expect(run.errors.contains("--user and --password are required"))
        #expect(run.errors.contains("usage: courier-conformance --server URL"))
        #expect(run.output.isEmpty)
    }

    @Test func aBackendThatDoesNotAnswerExits1WithAFailLine() throws {
        // Given an address where nothing listens (port 9, discard, closed on a test machine's loopback)
        // When the executable checks it
        let run = try ConformanceBinary.run(
            ["--server", "http://127.0.0.1:9", "--user", "me", "--password", "courier", "--timeout", "2"])

        // Then it prints the failed sign-in and the summary, and exits 1
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("FAIL sign-in: right password answers 201"))
        #expect(run.output.hasSuffix("1 checks: 0 ok, 1 failed, 0 skipped\n"))
    }
}
