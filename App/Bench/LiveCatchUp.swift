import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier-bench live`, catch-up: a client whose cursor is N events behind — peers sent N messages across four
/// conversations while it was offline — comes back online and applies them through its `SyncEngine` (batches of
/// 500 into the message cache, the conversation cache and the cursor, each a synced append; delivered receipts
/// queued durably and sent). The baseline fetches the same N messages again as pages of 50
/// (`MessageRepository.messages(in:before:limit:)`, newest first, through the same cache and retry stack), as a
/// client without a feed would have to. Both run on a file-backed `CourierClient` in a fresh directory against the
/// in-process backend, which answers at once.
@MainActor
struct LiveCatchUp {
    /// Per size, one figure per round.
    struct Figures {
        /// Catch-up: wall-clock seconds per event.
        var catchUp: [Int: [Double]] = [:]
        /// Catch-up: CPU seconds (user + system) per event.
        var catchUpCPU: [Int: [Double]] = [:]
        /// Pages: wall-clock seconds per message.
        var pages: [Int: [Double]] = [:]
        /// Pages: CPU seconds per message.
        var pagesCPU: [Int: [Double]] = [:]
        /// Events the engine applied in the last catch-up of each size (the peers' messages plus the echoes of the
        /// delivered receipts it sent meanwhile).
        var applied: [Int: Int] = [:]
    }

    static let pageSize = 50
    let sizes: [Int]
    let rounds: Int

    /// Every size in every round, the sizes' order (and which of the pair goes first) turning each round.
    func run() async throws -> Figures {
        var figures = Figures()
        for round in 0..<rounds {
            for size in round.isMultiple(of: 2) ? sizes : sizes.reversed() {
                var caught: (seconds: Double, cpu: Double, applied: Int)?
                var paged: (seconds: Double, cpu: Double)?
                if round.isMultiple(of: 2) {
                    caught = try await catchUp(size)
                    paged = try await pages(size)
                } else {
                    paged = try await pages(size)
                    caught = try await catchUp(size)
                }
                guard let caught, let paged else { continue }
                let count = Double(size)
                figures.catchUp[size, default: []].append(caught.seconds / count)
                figures.catchUpCPU[size, default: []].append(caught.cpu / count)
                figures.pages[size, default: []].append(paged.seconds / count)
                figures.pagesCPU[size, default: []].append(paged.cpu / count)
                figures.applied[size] = caught.applied
            }
        }
        return figures
    }

    // MARK: - One catch-up

    private func catchUp(_ size: Int) async throws -> (seconds: Double, cpu: Double, applied: Int) {
        let fixture = try LiveFixture(link: .direct) { LiveData.catchUp(now: $0) }
        defer { fixture.close() }
        guard let engine = fixture.engine else { throw BenchFailure("the client has no sync engine") }
        let client = fixture.client
        // Caught up is live. The backend answers a live request at once instead of holding it, so the loop would ask
        // again for ever: the app goes to the background the moment the engine goes live, which ends the loop.
        let token = engine.observe { [weak client] update in
            if update == .live(true) { client?.enterBackground() }
        }
        defer { token.cancel() }
        await fixture.clock.idle()
        // A client that has been used: its conversation list and each chat's newest page are cached.
        _ = try await client.conversations.conversations(of: LiveData.me, after: nil, limit: 50)
        for (conversation, _) in conversations {
            _ = try await client.messages.messages(in: conversation, before: nil, limit: Self.pageSize)
        }
        guard engine.cursor == fixture.backend.feedEndPosition(for: LiveData.me), !engine.isRunning else {
            throw BenchFailure("the client did not reach the feed's end before going offline")
        }
        fixture.setOnline(false)
        let newest = try send(size, to: fixture.backend)
        let end = fixture.backend.feedEndPosition(for: LiveData.me)
        let applied = engine.appliedEvents
        let cpu = DriverBenchmark.cpuTime()
        let seconds = await Bench.time {
            fixture.setOnline(true)
            client.enterForeground()
            await fixture.clock.idle()
        }
        let cpuSeconds = DriverBenchmark.cpuTime() - cpu
        guard let cursor = engine.cursor, cursor >= end, engine.appliedEvents - applied >= size else {
            let reached = engine.cursor.map(String.init) ?? "nil"
            throw BenchFailure("the catch-up of \(size) stopped at \(reached) of \(end)")
        }
        for message in newest where !client.messageCache.contains(message.id, in: message.conversationID) {
            throw BenchFailure("after the catch-up of \(size) the cache misses \(message.conversationID)'s newest")
        }
        return (seconds, cpuSeconds, engine.appliedEvents - applied)
    }

    // MARK: - The same messages as pages

    private func pages(_ size: Int) async throws -> (seconds: Double, cpu: Double) {
        let fixture = try LiveFixture(link: .direct, listens: false) { LiveData.catchUp(now: $0) }
        defer { fixture.close() }
        _ = try send(size, to: fixture.backend)
        let repository = fixture.client.messages
        let perConversation = size / conversations.count
        var fetched = 0
        let cpu = DriverBenchmark.cpuTime()
        let seconds = try await Bench.time {
            for (conversation, _) in conversations {
                var cursor: MessageCursor?
                var left = perConversation
                while left > 0 {
                    let page = try await repository.messages(
                        in: conversation, before: cursor, limit: min(Self.pageSize, left))
                    guard let oldest = page.messages.first else { break }
                    fetched += page.messages.count
                    left -= page.messages.count
                    cursor = oldest.cursor
                }
            }
        }
        let cpuSeconds = DriverBenchmark.cpuTime() - cpu
        guard fetched == perConversation * conversations.count else {
            throw BenchFailure("paging fetched \(fetched) of \(size) messages")
        }
        return (seconds, cpuSeconds)
    }

    // MARK: - The peers

    private var conversations: [(ConversationID, UserID)] {
        LiveData.peers.enumerated().map { (ConversationID("c\($0.offset + 1)"), $0.element) }
    }

    /// The peers send `size` messages in turn, a millisecond apart; returns each conversation's newest.
    private func send(_ size: Int, to backend: InMemoryChatBackend) throws -> [Message] {
        let ids = IDGenerator.seeded(UInt64(1_000 + size))
        let start = Date(timeIntervalSince1970: 1_767_258_000)
        var newest: [ConversationID: Message] = [:]
        for index in 0..<size {
            let message = LiveData.peerMessage(
                index, id: ids.next(), in: conversations, at: start.addingTimeInterval(Double(index) / 1_000))
            newest[message.conversationID] = try backend.receive(message)
        }
        return newest.keys.sorted().compactMap { newest[$0] }
    }
}
