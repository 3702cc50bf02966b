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
        // The same event at a tenth of the rows shows how its cost grows with the list.
        let tenth = Array(messages.prefix(queued / 10))
        let smallRebuild = handBuildTime(messages: tenth, clock: clock)
        let memoryFixture = try QueueStateFixture(store: memoryStore, clock: clock)
        let smallMemoryFixture = try QueueStateFixture(store: InMemoryOutboxStore(messages: tenth), clock: clock)
        rows += try events(
            large: QueueEventSampler(fixture: memoryFixture, messages: messages, seed: 11),
            small: QueueEventSampler(fixture: smallMemoryFixture, messages: tenth, seed: 12),
            store: "InMemoryOutboxStore", rebuild: (handRebuild, smallRebuild))
        let smallFileStore = try FileOutboxStore(directory: root.appendingPathComponent("outbox-small"))
        defer { smallFileStore.close() }
        for message in tenth { try smallFileStore.enqueue(message) }
        let smallFileFixture = try QueueStateFixture(store: smallFileStore, clock: clock)
        rows += try events(
            large: QueueEventSampler(fixture: fileFixture, messages: messages, seed: 13),
            small: QueueEventSampler(fixture: smallFileFixture, messages: tenth, seed: 14),
            store: "FileOutboxStore", rebuild: (handRebuild, smallRebuild))
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

    /// Edits random messages at 10,000 rows and at 1,000 over the same kind of store, sample by sample in turn, so
    /// both sizes meet the same machine and disk weather; rows for each size, then the floor: the whole event (store,
    /// outbox and screen) at 10,000 rows against 1,000.
    private func events(
        large: QueueEventSampler, small: QueueEventSampler, store: String, rebuild: (large: Double, small: Double)
    ) throws -> [[String]] {
        for _ in 0..<eventSamples {
            try large.next()
            try small.next()
        }
        try large.finish()
        try small.finish()
        let ratio = Bench.median(large.withScreen) / Bench.median(small.withScreen)
        // A synced edit at 1,000 rows costs its sync, about a tenth of rebuilding 1,000 rows by hand: against that
        // rebuild the file store is held at 10,000 rows only.
        return eventRows(large, store: store, rebuild: rebuild.large, targeted: true)
            + eventRows(small, store: store, rebuild: rebuild.small, targeted: store == "InMemoryOutboxStore") + [
                [
                    "one edit event, \(large.messages.count.formatted()) rows against "
                        + "\(small.messages.count.formatted()), \(store) (p50 of \(eventSamples) each, alternating)",
                    Bench.format(Bench.median(large.withScreen)),
                    "\(Bench.format(Bench.median(small.withScreen))) (the same event at "
                        + "\(small.messages.count.formatted()) rows)",
                    Bench.ratio(ratio), "≤ 2.00×", Bench.verdict(ratio <= 2),
                ]
            ]
    }

    private func eventRows(
        _ sampler: QueueEventSampler, store: String, rebuild: Double, targeted: Bool
    ) -> [[String]] {
        let ours = Bench.median(sampler.withScreen)
        let outboxOnly = Bench.median(sampler.bare)
        return [
            [
                "one edit event at \(sampler.messages.count.formatted()) rows, \(store) (p50 of \(eventSamples))",
                Bench.format(ours),
                "\(Bench.format(rebuild)) (rebuild all rows by hand)", Bench.ratio(ours / rebuild),
                targeted ? "< 0.10×" : "—", targeted ? Bench.verdict(ours / rebuild < 0.1) : "",
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
