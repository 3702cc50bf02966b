import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite("NetworkConditioner")
struct NetworkConditionerTests {
    private let clock = ManualClock()
    private let backend: InMemoryChatBackend
    private let network: NetworkConditioner

    init() throws {
        backend = try BackendFixtures.backend()
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
    }

    /// Sends `message` in a task and returns its outcome and the clock time it took, driving the clock as needed.
    private func timedSend(_ message: Message, via network: NetworkConditioner? = nil)
        async -> (result: Result<Message, DeliveryError>, elapsed: TimeInterval)
    {
        let network = network ?? self.network
        return await clock.drive { try await network.send(message) }
    }

    // MARK: - Connectivity

    @Test("offline: a request fails with .offline at once and never reaches the backend")
    func offline() async {
        network.setOnline(false)

        let (result, elapsed) = await timedSend(BackendFixtures.message("m1"))

        #expect(result == .failure(.offline))
        #expect(elapsed == 0)
        #expect(network.roundTrips == 0)
        #expect(backend.requests == 0)
    }

    @Test("observers get the current connectivity at once, then every change")
    func observation() {
        var seen: [Bool] = []
        let token = network.observe { seen.append($0) }
        network.setOnline(false)
        network.setOnline(false)
        network.setOnline(true)
        token.cancel()
        network.setOnline(false)
        #expect(seen == [true, false, true])
    }

    @Test("going offline before the request reaches the backend fails it with .offline; nothing is applied")
    func offlineBeforeBackend() async {
        network.profile = .threeG
        let attempt = DeliveryAttempt(on: clock) { try await network.send(BackendFixtures.message("m1")) }
        await clock.advance(by: .milliseconds(50))
        network.setOnline(false)
        await attempt.finish()

        #expect(attempt.outcome == .failure(.offline))
        #expect(backend.messageCount(in: "c1") == 0)
    }

    @Test("going offline after the backend applied the write fails it with .offline: the unknown outcome")
    func offlineAfterBackend() async {
        network.profile = .threeG
        let attempt = DeliveryAttempt(on: clock) { try await network.send(BackendFixtures.message("m1")) }
        _ = await clock.run(until: { backend.messageCount(in: "c1") == 1 })
        #expect(attempt.outcome == nil)
        network.setOnline(false)
        await attempt.finish()

        #expect(attempt.outcome == .failure(.offline))
        #expect(backend.messageCount(in: "c1") == 1)
    }

    @Test("a connection that drops and comes back at once fails the request on it with .offline, not as cancelled")
    func aDropAndReturnFailsOffline() async {
        // Given a request on its way over 3g
        network.profile = .threeG
        let attempt = DeliveryAttempt(on: clock) { try await network.send(BackendFixtures.message("m1")) }
        await clock.advance(by: .milliseconds(50))

        // When the connection drops and is back before the request hears of it
        network.setOnline(false)
        network.setOnline(true)
        await attempt.finish()

        // Then the request failed as cut off (a caller resends it), never as if its caller had given up
        #expect(attempt.outcome == .failure(.offline))
        #expect(backend.messageCount(in: "c1") == 0)
    }

    // MARK: - Latency and failures

    @Test("wifi answers in about 20 ms and 3g in about 300 ms of clock time")
    func latency() async throws {
        let (wifi, wifiTime) = await timedSend(BackendFixtures.message("m1"))
        network.profile = .threeG
        let (threeG, threeGTime) = await timedSend(BackendFixtures.message("m2"))

        #expect(try wifi.get().status == .sent)
        #expect((0.015...0.025).contains(wifiTime))
        #expect(try threeG.get().status == .sent)
        #expect((0.2...0.4).contains(threeGTime))
        #expect(network.roundTrips == 2)
    }

    @Test("a fail rate of 1 answers every request with 503 before the backend")
    func failRateAll() async {
        network.failRate = 1

        let (result, _) = await timedSend(BackendFixtures.message("m1"))

        #expect(result == .failure(.server(code: 503)))
        #expect(backend.requests == 0)
        #expect(network.roundTrips == 1)
    }

    @Test("a fail rate of 0.5 fails about half of the requests, and only those miss the backend")
    func failRateHalf() async {
        network.failRate = 0.5
        var failures = 0
        for index in 0..<100 {
            let (result, _) = await timedSend(BackendFixtures.message("m\(index)", at: Double(index)))
            if case .failure(let error) = result {
                #expect(error == .server(code: 503))
                failures += 1
            }
        }
        #expect((30...70).contains(failures))
        #expect(backend.messageCount(in: "c1") == 100 - failures)
    }

    @Test("flaky loses requests and responses: a lost response is applied at the backend yet the client times out")
    func flaky() async {
        network.profile = .flaky
        var lostRequests = 0
        var lostResponses = 0
        for index in 0..<100 {
            let message = BackendFixtures.message("m\(index)", at: Double(index))
            let (result, elapsed) = await timedSend(message)
            guard case .failure(let error) = result else { continue }
            #expect(error == .timeout)
            #expect(elapsed == 10)
            if backend.message(message.id) == nil { lostRequests += 1 } else { lostResponses += 1 }
        }
        #expect(lostRequests > 0)
        #expect(lostResponses > 0)
        #expect((15...45).contains(lostRequests + lostResponses))
    }

    @Test("the same seed gives the same outcomes and timings")
    func sameSeedSameRun() async throws {
        func run(seed: UInt64) async throws -> [String] {
            let backend = try BackendFixtures.backend()
            let network = NetworkConditioner(
                backend: backend, clock: clock, random: LockedRandom(seed: seed), profile: .flaky, failRate: 0.2)
            var log: [String] = []
            for index in 0..<40 {
                let (result, elapsed) = await timedSend(BackendFixtures.message("m\(index)"), via: network)
                log.append("\(result.map(\.id.rawValue)) \(elapsed)")
            }
            return log
        }
        let first = try await run(seed: 9)
        #expect(try await run(seed: 9) == first)
        #expect(try await run(seed: 10) != first)
    }

    // MARK: - Batches

    @Test("a batch is one round trip; the backend applies it in order with one result per message")
    func batch() async throws {
        let messages = (1...5).map { BackendFixtures.message("m\($0)", at: Double($0)) }
        var results: [Result<Message, DeliveryError>] = []
        let task = clock.throwingTask { results = try await network.sendBatch(messages) }
        _ = await clock.run(until: { !results.isEmpty })
        try await task.value

        #expect(results.count == 5)
        #expect(network.roundTrips == 1)
        #expect(backend.requests == 1)
        #expect(backend.messages(in: "c1").map(\.id) == messages.map(\.id))
    }

    // MARK: - Other requests

    @Test("page loads, the conversation list, profiles and name changes all travel over the network")
    func otherRequests() async throws {
        var done = false
        let task = clock.throwingTask {
            _ = try await network.messages(in: "c1", before: nil, limit: 50)
            _ = try await network.conversations(of: "me", after: nil, limit: 50)
            _ = try await network.users(["ana"])
            _ = try await network.presence(["ana"])
            try await network.updateDisplayName(of: "me", to: "Mia")
            done = true
        }
        _ = await clock.run(until: { done })
        try await task.value
        // Presence travels too, but is not counted as a round trip: a chat asks for it every 30 s
        #expect(network.roundTrips == 4)
        // The backend counts the page, the list and the name change: name and presence lookups are not counted,
        // as the driver's `server.requests` says
        #expect(backend.requests == 3)
        #expect(backend.user("me")?.displayName == "Mia")
    }
}
