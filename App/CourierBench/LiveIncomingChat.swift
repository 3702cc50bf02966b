import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// One open chat that a peer writes into: a `ChatViewModel` made from a file-backed `CourierClient` (session init),
/// opened on a conversation holding `size` messages at the backend with its first page loaded, listening through
/// the simulated network on the manual clock (the live request is held at the backend until Ana writes).
@MainActor
final class LiveIncomingChat {
    let size: Int
    let fixture: LiveFixture
    let chat: ChatViewModel
    private let banner: ConnectivityBannerViewModel
    private let ids: IDGenerator
    private var token: ObservationToken?
    /// The message whose row is awaited, and when (uptime nanoseconds, CPU seconds) the state first showed it.
    private var awaited: MessageID?
    private var shown: (uptime: UInt64, cpu: Double)?
    private var sent = 0

    /// Opens the chat and waits until its first page shows and the client listens.
    init(size: Int) async throws {
        self.size = size
        fixture = try LiveFixture(link: .network) { LiveData.chat(size: size, now: $0) }
        ids = IDGenerator.seeded(UInt64(7_000 + size))
        banner = ConnectivityBannerViewModel(session: fixture.client)
        chat = ChatViewModel(session: fixture.client, conversationID: LiveData.chat, title: "Ana", banner: banner)
        token = chat.observe { [weak self] state in
            guard let self, let awaited = self.awaited, state.messages.last?.id == awaited else { return }
            self.shown = (DispatchTime.now().uptimeNanoseconds, DriverBenchmark.cpuTime())
            self.awaited = nil
        }
        chat.start()
        let chat = chat
        let fixture = fixture
        let loaded = await fixture.clock.run(until: {
            !chat.state.isLoading && !chat.hasPendingWork && fixture.isSettled && fixture.engine?.isLive == true
        })
        guard loaded, chat.state.messages.count == min(size, 50) else {
            throw BenchFailure("the chat of \(size) did not open on its first page (\(chat.state.messages.count) rows)")
        }
    }

    /// Ana writes one message at the backend; returns the wall-clock and CPU seconds from its arrival there until
    /// its row shows in the chat's state. Then the client settles (its receipts delivered and echoed back, the
    /// live request held again), untimed.
    func receiveOne() async throws -> (seconds: Double, cpu: Double) {
        let message = Message(
            id: ids.next(), conversationID: LiveData.chat, senderID: "ana",
            text: LiveData.phrases[sent % LiveData.phrases.count], timestamp: fixture.clock.now, status: .sent)
        sent += 1
        shown = nil
        awaited = message.id
        _ = try fixture.backend.receive(message)
        let cpu = DriverBenchmark.cpuTime()
        let start = DispatchTime.now().uptimeNanoseconds
        let arrived = await fixture.clock.run(until: { self.shown != nil }, limit: .seconds(60))
        guard arrived, let shown else { throw BenchFailure("a message into the chat of \(size) never showed") }
        let settled = await fixture.clock.run(until: {
            self.fixture.isSettled && self.fixture.engine?.isLive == true && !self.chat.hasPendingWork
        })
        guard settled else { throw BenchFailure("the chat of \(size) did not settle after a message") }
        return (Double(shown.uptime - start) / 1e9, shown.cpu - cpu)
    }

    /// Rows the chat shows.
    var rows: Int { chat.state.messages.count }

    func close() {
        token = nil
        fixture.close()
    }
}
