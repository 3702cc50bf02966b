import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// The catch-up's baseline: the same `size` messages fetched again as pages of 50, newest first, conversation by
/// conversation, through the client's message repository (the message cache over the retry policy over the
/// simulated network), as a client without a feed would have to; each page is a step.
@MainActor
final class LivePagesRun: LiveRun {
    let size: Int
    private(set) var seconds = 0.0
    private(set) var cpu = 0.0
    private let fixture: LiveFixture
    private var conversations = LiveData.catchUpConversations.map(\.0)
    private var cursor: MessageCursor?
    private var leftInConversation: Int
    private var fetched = 0

    /// Builds the client (no feed) and the peers' messages, untimed.
    init(size: Int) async throws {
        self.size = size
        fixture = try LiveFixture(link: .network, listens: false) { LiveData.catchUp(now: $0) }
        _ = try LiveData.peersSend(size, to: fixture.backend)
        leftInConversation = size / conversations.count
    }

    var progress: Double { Double(fetched) / Double(size) }

    func step() async throws -> Bool {
        guard let conversation = conversations.first else { return false }
        let repository = fixture.client.messages
        let limit = min(LiveCatchUp.pageSize, leftInConversation)
        let before = cursor
        let cpuBefore = DriverBenchmark.cpuTime()
        let start = DispatchTime.now().uptimeNanoseconds
        let page = try await fixture.drive {
            try await repository.messages(in: conversation, before: before, limit: limit)
        }
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        cpu += DriverBenchmark.cpuTime() - cpuBefore
        guard let oldest = page.messages.first else { throw BenchFailure("an empty page in \(conversation)") }
        fetched += page.messages.count
        leftInConversation -= page.messages.count
        cursor = oldest.cursor
        if leftInConversation <= 0 {
            conversations.removeFirst()
            cursor = nil
            leftInConversation = size / LiveData.catchUpConversations.count
        }
        guard conversations.isEmpty else { return true }
        guard fetched == size else { throw BenchFailure("paging fetched \(fetched) of \(size) messages") }
        return false
    }

    func close() { fixture.close() }
}
