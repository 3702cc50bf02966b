import CourierConformance
import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The kit against backends that each break one promise of the contract: it must notice, name the check, and say
/// why — a kit that passes everything is no kit.
@MainActor
@Suite(.removesTemporaryDirectories) struct ConformanceKitBreachTests {
    @Test(arguments: ContractBreach.allCases)
    func aBackendThatBreaksThePromiseFailsTheChecksOfIt(_ breach: ContractBreach) async throws {
        // Given courier-server's parts answering with one breach of the contract
        let server = try BrokenServer(breach)
        defer { server.stop() }

        // When the kit checks it as me and ben
        let options = ConformanceOptions(
            server: server.url, user: ConformanceKitTests.me, user2: ConformanceKitTests.ben,
            timeout: ConformanceKitTests.patience)
        let report = await ConformanceKit(options: options).run()

        // Then the run fails, and exactly the checks of that promise fail
        #expect(!report.passed)
        #expect(Set(report.failures.map(\.check)) == breach.failingChecks, "\(report.failures)")
    }

    @Test func aSilentlyDroppedConflictIsNamedInTheLineItPrints() async throws {
        // Given a backend that answers a reused id with other content 200, keeping the first content
        let server = try BrokenServer(.conflictsAccepted)
        defer { server.stop() }

        // When the kit checks it
        let options = ConformanceOptions(
            server: server.url, user: ConformanceKitTests.me, timeout: ConformanceKitTests.patience)
        var lines: [String] = []
        _ = await ConformanceKit(options: options).run { lines.append("\($0)") }

        // Then the failing line names the request and the status it answered instead of 409
        #expect(
            lines.contains(
                "FAIL \(ConformanceCheck.idempotentConflict.rawValue): "
                    + "PUT of the same id with other text answered 200, not 409"))
    }
}
