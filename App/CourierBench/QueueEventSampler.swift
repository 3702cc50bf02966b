import CourierData
import CourierDomain
import CourierPresentation
import Foundation

/// One side of `queue-state`'s edit events: an Offline Queue screen over a fixture's outbox, and edits of random
/// messages through that outbox (the screen observing) and through the fixture's unobserved outbox (no screen).
///
/// Each edit is checked to have emitted exactly one state holding the new text, in O(1): the row's position is
/// looked up, not searched for, so the check between two samples touches one row, not all of them — a pass over
/// 10,000 rows between samples would leave the next sample to start from cold caches and charge the pass to it.
@MainActor
final class QueueEventSampler {
    let fixture: QueueStateFixture
    let messages: [Message]
    private let screen: OfflineQueueViewModel
    private var token: ObservationToken?
    private var emitted = 0
    private var positions: [MessageID: Int] = [:]
    private var random: SeededRandom
    private var sample = 0
    /// Seconds per edit with the screen observing.
    private(set) var withScreen: [Double] = []
    /// Seconds per edit through the unobserved outbox.
    private(set) var bare: [Double] = []

    init(fixture: QueueStateFixture, messages: [Message], seed: UInt64) throws {
        self.fixture = fixture
        self.messages = messages
        random = SeededRandom(seed: seed)
        screen = fixture.makeScreen()
        token = screen.observe { [weak self] _ in self?.emitted += 1 }
        for (index, row) in screen.state.rows.enumerated() { positions[row.id] = index }
        guard positions.count == messages.count else { throw BenchFailure("the screen shows the wrong rows") }
    }

    /// Times one edit with the screen observing and one without; throws when the screen missed it.
    func next() throws {
        let id = messages[Int(random.next() % UInt64(messages.count))].id
        let text = "Edited on the platform (\(sample))"
        let before = emitted
        withScreen.append(try Bench.time { try fixture.outbox.edit(id, text: text) })
        guard emitted == before + 1, let position = positions[id], screen.state.rows[position].id == id,
            screen.state.rows[position].text == text
        else { throw BenchFailure("the screen missed an edit, or emitted more than one state for it") }
        let other = messages[Int(random.next() % UInt64(messages.count))].id
        bare.append(try Bench.time { try fixture.unobservedOutbox.edit(other, text: text + ".") })
        sample += 1
    }

    /// Stops observing; throws unless the screen still shows every message.
    func finish() throws {
        guard screen.state.rows.count == messages.count else { throw BenchFailure("the screen lost rows") }
        token = nil
    }
}
