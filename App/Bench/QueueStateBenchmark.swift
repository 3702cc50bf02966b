import CourierData
import CourierDomain
import CourierPresentation
import Foundation

/// `courier-bench queue-state`: the Offline Queue screen over 10,000 queued messages — how long
/// until its first state, and what one outbox event costs once 10,000 rows are shown — against building the same
/// rows by hand from the same messages (the floor: any screen has to do at least that much).
@MainActor
struct QueueStateBenchmark {
    private let queued = 10_000
    private let firstStateRepeats = 9
    private let eventSamples = 400

    func run() throws {
        let root = try Bench.temporaryDirectory("queue-state")
        defer { try? FileManager.default.removeItem(at: root) }
        let clock = ManualClock()
        let ids = IDGenerator.seeded(3)
        let messages = (0..<queued).map { Self.message($0, id: ids.next(), now: clock.now) }
        let fileStore = try FileOutboxStore(directory: root.appendingPathComponent("outbox"))
        defer { fileStore.close() }
        for message in messages { try fileStore.enqueue(message) }
        let memoryStore = InMemoryOutboxStore(messages: messages)
        var rows: [[String]] = []
        let fileFixture = try QueueStateFixture(store: fileStore, clock: clock)
        rows.append(try firstState(fixture: fileFixture, messages: messages))
        let handRebuild = handBuildTime(messages: messages, clock: clock)
        let memoryFixture = try QueueStateFixture(store: memoryStore, clock: clock)
        rows += try event(
            fixture: memoryFixture, messages: messages, store: "InMemoryOutboxStore", rebuild: handRebuild)
        // The same event at a tenth of the rows shows how its cost grows with the list.
        let tenth = Array(messages.prefix(queued / 10))
        let smallFixture = try QueueStateFixture(store: InMemoryOutboxStore(messages: tenth), clock: clock)
        let smallRebuild = handBuildTime(messages: tenth, clock: clock)
        rows += try event(fixture: smallFixture, messages: tenth, store: "InMemoryOutboxStore", rebuild: smallRebuild)
        rows += try event(fixture: fileFixture, messages: messages, store: "FileOutboxStore", rebuild: handRebuild)
        print("## courier-bench queue-state\n")
        print(Bench.table(header: ["measurement", "Courier", "baseline", "ratio", "target", "met"], rows: rows))
    }

    // MARK: - First state

    private func firstState(fixture: QueueStateFixture, messages: [Message]) throws -> [String] {
        var screenSamples: [Double] = []
        var handSamples: [Double] = []
        for _ in 0..<firstStateRepeats {
            var first: OfflineQueueViewModel.State?
            var screen: OfflineQueueViewModel?
            var token: ObservationToken?
            screenSamples.append(
                Bench.time {
                    let model = fixture.makeScreen()
                    token = model.observe { first = $0 }
                    screen = model
                })
            guard first?.rows.count == queued, screen != nil, token != nil else { throw BenchFailure("first state") }
            token = nil
            screen = nil
            var hand: OfflineQueueViewModel.State?
            handSamples.append(Bench.time { hand = Self.handBuiltState(messages, now: fixture.clock.now) })
            guard hand == first else { throw BenchFailure("the hand-built rows differ from the screen's") }
        }
        let ours = Bench.median(screenSamples)
        let floor = Bench.median(handSamples)
        return [
            "first state, \(queued.formatted()) queued (FileOutboxStore, median of \(firstStateRepeats))",
            Bench.format(ours), "\(Bench.format(floor)) (sort + map into rows by hand)", Bench.ratio(ours / floor),
            "< 100 ms", Bench.verdict(ours < 0.1),
        ]
    }

    private func handBuildTime(messages: [Message], clock: ManualClock) -> Double {
        let samples = (0..<firstStateRepeats).map { _ in
            Bench.time { _ = Self.handBuiltState(messages, now: clock.now) }
        }
        return Bench.median(samples)
    }

    /// The floor: the same messages, sorted into compose order and mapped into the screen's rows, with no outbox,
    /// store or observation in between. They come in already sorted, which is the sort's cheapest case.
    private static func handBuiltState(_ messages: [Message], now: Date) -> OfflineQueueViewModel.State {
        let formatter = RelativeTimeFormatter()
        var names: [ConversationID: String] = [:]
        let rows = messages.sorted(by: Message.composeOrder).map { message in
            let name = names[message.conversationID] ?? QueueStateFixture.conversationName(message.conversationID)
            names[message.conversationID] = name
            return OfflineQueueRow(message, conversationName: name, now: now, formatter: formatter)
        }
        return .init(title: "Offline Queue (\(rows.count))", rows: rows, emptyState: nil)
    }

    // MARK: - One event at 10,000 rows

    /// Edits one message through the outbox, with the screen observing (its state must change) and without any
    /// screen, alternately; the difference is what the screen adds to an event.
    private func event(
        fixture: QueueStateFixture, messages: [Message], store: String, rebuild: Double
    ) throws -> [[String]] {
        let screen = fixture.makeScreen()
        var emitted = 0
        let token = screen.observe { _ in emitted += 1 }
        var random = SeededRandom(seed: 11)
        var withScreen: [Double] = []
        var bare: [Double] = []
        for sample in 0..<eventSamples {
            let id = messages[Int(random.next() % UInt64(messages.count))].id
            let text = "Edited on the platform (\(sample))"
            withScreen.append(try Bench.time { try fixture.outbox.edit(id, text: text) })
            guard screen.state.rows.contains(where: { $0.id == id && $0.text == text }) else {
                throw BenchFailure("the screen missed an edit")
            }
            let other = messages[Int(random.next() % UInt64(messages.count))].id
            bare.append(try Bench.time { try fixture.unobservedOutbox.edit(other, text: text + ".") })
        }
        guard emitted == eventSamples + 1, screen.state.rows.count == messages.count else {
            throw BenchFailure("expected one state per edit, saw \(emitted)")
        }
        withExtendedLifetime(token) {}
        let ours = Bench.median(withScreen)
        let outboxOnly = Bench.median(bare)
        return [
            [
                "one edit event at \(messages.count.formatted()) rows, \(store) (p50 of \(eventSamples))",
                Bench.format(ours),
                "\(Bench.format(rebuild)) (rebuild all rows by hand)", Bench.ratio(ours / rebuild), "< 0.10×",
                Bench.verdict(ours / rebuild < 0.1),
            ],
            [
                "… of which the screen (event with screen − bare outbox edit \(Bench.format(outboxOnly)))",
                Bench.format(max(0, ours - outboxOnly)), "\(Bench.format(rebuild)) (rebuild all rows by hand)",
                Bench.ratio(max(0, ours - outboxOnly) / rebuild), "—", "",
            ],
        ]
    }

    // MARK: - Data

    /// A message queued offline over the past week, one a minute, across 120 conversations.
    static func message(_ index: Int, id: MessageID, now: Date) -> Message {
        Message(
            id: id, conversationID: ConversationID("c\(index % 120 + 1)"), senderID: "me",
            text: "Running late, the train is stuck outside the station — see you at 6? (#\(index))",
            timestamp: now.addingTimeInterval(Double(index - 10_000) * 60), status: .queued)
    }
}
