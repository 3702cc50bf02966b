import CourierConformance
import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The kit against a real `courier-server` (in process, on a free loopback port): every check passes, again and
/// again on the same server, writing only where its users are; one user alone skips what needs two.
@MainActor
@Suite(.removesTemporaryDirectories) struct ConformanceKitTests {
    /// A server more patient than the kit (10 s): on a machine running every suite at once, URLSession may hand a
    /// request's body to its socket seconds after its head, which the default 5 s would answer 408.
    static let patient = HTTPLimits(requestTimeout: .seconds(30))

    static let me = ConformanceOptions.Credentials(id: "me", password: ChatServer.demoPassword)
    static let ben = ConformanceOptions.Credentials(id: "ben", password: ChatServer.demoPassword)
    /// A request's timeout in these tests: the in-process server answers on the main actor, which a whole-suite run
    /// shares with every other suite, so an answer can take seconds to come although nothing is wrong.
    static let patience: TimeInterval = 30

    @Test func everyCheckPassesAgainstCourierServerAndAgainOnTheSameData() async throws {
        // Given courier-server on a free port, with its demo users
        let server = try ServerFixture(limits: Self.patient).server
        let options = ConformanceOptions(
            server: server.url, user: Self.me, user2: Self.ben, timeout: Self.patience)

        // When the kit checks it as me and ben, then runs again against what the first run left
        var printed: [String] = []
        let first = await ConformanceKit(options: options).run { printed.append("\($0)") }
        let second = await ConformanceKit(options: options).run()

        // Then every check ran, in order, and passed both times, each told as it came
        #expect(first.failures == [])
        #expect(first.results.map(\.check) == ConformanceCheck.allCases)
        #expect(first.results.allSatisfy { $0.outcome == .passed })
        #expect(printed.first == "ok   \(ConformanceCheck.signIn.rawValue)")
        #expect(printed.count == ConformanceCheck.allCases.count)
        #expect(second.failures == [])
        let count = ConformanceCheck.allCases.count
        #expect(second.summary == "\(count) checks: \(count) ok, 0 failed, 0 skipped")
        // and it wrote only into c2, the conversation me and ben share: Ana's c1 and Chloe's c3 are as seeded
        #expect(server.backend.messageCount(in: "c1") == 1_000)
        #expect(server.backend.messageCount(in: "c3") == Self.seeded("c3"))
        #expect(server.backend.messageCount(in: "c2") > 3)
    }

    @Test func oneUserAloneSkipsWhatNeedsTwoAndFailsNothing() async throws {
        // Given courier-server
        let server = try ServerFixture(limits: Self.patient).server

        // When the kit checks it as me alone
        let report = await ConformanceKit(
            options: ConformanceOptions(server: server.url, user: Self.me, timeout: Self.patience)
        ).run()

        // Then the checks that need a second user are skipped, saying so, and the rest pass
        let skipped = report.results.filter { if case .skipped = $0.outcome { true } else { false } }.map(\.check)
        #expect(
            skipped == [
                .foreignRead, .foreignWrite, .senderMismatch, .senderMismatchBatch, .foreignList, .foreignID,
                .feedNoGap,
            ])
        #expect(report.outcome(of: .foreignRead) == .skipped("needs --user2 and --password2"))
        #expect(report.passed)
    }

    @Test func aBackendServedUnderAPathIsCheckedUnderIt() async throws {
        // Given the contract served under /api only (404 outside it), as behind a reverse proxy
        let server = try BrokenServer(nil, under: "/api")
        defer { server.stop() }
        let base = try #require(URL(string: server.url.absoluteString + "/"))

        // When the kit checks it at http://127.0.0.1:PORT/api/
        let report = await ConformanceKit(
            options: ConformanceOptions(server: base, user: Self.me, user2: Self.ben, timeout: Self.patience)
        ).run()

        // Then every request went under /api, and every check passed
        #expect(report.failures == [])
        #expect(report.results.map(\.check) == ConformanceCheck.allCases)
        #expect(report.results.allSatisfy { $0.outcome == .passed })
    }

    @Test func aRefusedSignInEndsTheRunWithOneFailure() async throws {
        // Given courier-server
        let server = try ServerFixture(limits: Self.patient).server

        // When the kit is given a wrong password
        let wrong = ConformanceOptions.Credentials(id: "me", password: "not-courier")
        let report = await ConformanceKit(
            options: ConformanceOptions(server: server.url, user: wrong, timeout: Self.patience)
        ).run()

        // Then sign-in fails, saying what the server answered, and nothing else is checked
        #expect(report.results.map(\.check) == [.signIn])
        #expect(report.outcome(of: .signIn) == .failed("POST /sessions as me answered 401 unauthorized, not 201"))
        #expect(!report.passed)
    }

    @Test func aBackendThatDoesNotAnswerFailsTheRun() async throws {
        // Given an address where nothing listens (a server that has stopped)
        let fixture = try ServerFixture(limits: Self.patient)
        let url = fixture.server.url
        fixture.tearDown()

        // When the kit checks it
        let report = await ConformanceKit(options: ConformanceOptions(server: url, user: Self.me, timeout: 2)).run()

        // Then the run fails at sign-in, saying no answer came
        guard case .failed(let reason) = report.outcome(of: .signIn) else {
            Issue.record("sign-in did not fail: \(report.results)")
            return
        }
        #expect(reason.contains("no answer"))
        #expect(!report.passed)
    }

    /// How many messages the demo data seeds `conversation` with.
    private static func seeded(_ conversation: ConversationID) -> Int {
        let demo = DemoData.make(seed: ChatServer.demoSeed, now: ManualClock().now)
        return demo.messages.filter { $0.conversationID == conversation }.count
    }
}
