import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// Profile edits through the driver: a display-name change goes through the offline write queue.
@Suite("Driver profile edits", .removesTemporaryDirectories)
@MainActor
struct DriverProfileTests {
    @Test("online: the name changes at once and reaches the backend by itself")
    func onlineEdit() async throws {
        let harness = try await AppTestsDriverHarness.started()
        #expect(
            await harness.run(
                """
                profile name Marta
                expect profile.displayName == "Marta"
                expect writes.pending == 0
                expect server.displayName == "Marta"
                """) == .success, "\(harness.output.joined(separator: "\n"))")
    }

    @Test("offline: shown at once, kept durably across a restart, synced on reconnect; a newer name replaces it")
    func offlineEditSurvivesRestartAndCoalesces() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let original = try await harness.state()["server"]?["displayName"]
        #expect(
            await harness.run(
                """
                network offline
                profile name Marta
                expect profile.displayName == "Marta"
                expect writes.pending == 1
                profile name Marta K
                expect writes.pending == 1
                restart
                expect writes.pending == 1
                """) == .success, "\(harness.output.joined(separator: "\n"))")
        #expect(try await harness.state()["server"]?["displayName"] == original, "nothing reached the backend yet")
        let requestsBefore = try await harness.number("server.requests")
        #expect(
            await harness.run(
                """
                network online
                expect writes.pending == 0
                expect server.displayName == "Marta K"
                """) == .success, "\(harness.output.joined(separator: "\n"))")
        #expect(try await harness.number("server.requests") == requestsBefore + 1, "the older name was coalesced away")
    }

    @Test("an empty name is refused and changes nothing")
    func emptyName() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let before = try await harness.state()
        #expect(!(await harness.execute("profile name   ").ok))
        #expect(try await harness.state()["profile"] == before["profile"])
        #expect(try await harness.number("writes.pending") == 0)
    }
}
