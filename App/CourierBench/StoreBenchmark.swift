import CourierData
import CourierDomain
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `courier-bench store`: the outbox store against its floors, measured side by side in one
/// run so that both sides see the same disk and the same neighbours.
struct StoreBenchmark {
    private let enqueueSamples = 2_000
    private let queuedSamples = 200
    private let openCount = 10_000
    private let openRepeats = 7

    func run() throws {
        let root = try Bench.temporaryDirectory("store")
        defer { try? FileManager.default.removeItem(at: root) }
        var rows: [[String]] = []
        rows += try durableEnqueue(in: root.appendingPathComponent("durable"))
        for queued in [50, 1_000] {
            let directory = root.appendingPathComponent("queued-\(queued)")
            rows.append(try enqueueAgainstWholeFileJSON(queued: queued, in: directory))
        }
        rows.append(try opening(in: root.appendingPathComponent("open")))
        print("## courier-bench store\n")
        print(Bench.table(header: ["measurement", "Courier", "baseline", "ratio", "floor", "met"], rows: rows))
    }

    // MARK: - Durable enqueue against append + fdatasync

    private func durableEnqueue(in directory: URL) throws -> [[String]] {
        let store = try FileOutboxStore(directory: directory)
        defer { store.close() }
        let logPath = directory.appendingPathComponent(FileOutboxStore.fileName).path
        let floorPath = directory.appendingPathComponent("floor.bin").path
        let descriptor = open(floorPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        var storeSamples: [Double] = []
        var floorSamples: [Double] = []
        var floorOffset = 0
        var recordSize = 0
        // Alternate in rounds so that both loops meet the same disk weather.
        let rounds = 8
        for round in 0..<rounds {
            for index in 0..<(enqueueSamples / rounds) {
                let message = Self.message(round * enqueueSamples + index)
                let before = fileSize(logPath)
                storeSamples.append(try Bench.time { try store.enqueue(message) })
                recordSize = fileSize(logPath) - before
            }
            let record = [UInt8](repeating: 0x61, count: max(recordSize, 1))
            for _ in 0..<(enqueueSamples / rounds) {
                floorSamples.append(
                    Bench.time {
                        _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(floorOffset)) }
                        _ = fdatasync(descriptor)
                    })
                floorOffset += record.count
            }
        }
        let label = "(\(enqueueSamples) samples, \(recordSize)-byte record)"
        return [
            row(
                "durable enqueue p50 \(label)", ours: Bench.median(storeSamples),
                baseline: Bench.median(floorSamples), baselineName: "pwrite + fdatasync", floor: 1.5),
            row(
                "durable enqueue p99", ours: Bench.percentile(storeSamples, 99),
                baseline: Bench.percentile(floorSamples, 99), baselineName: "pwrite + fdatasync", floor: nil),
        ]
    }

    // MARK: - Enqueue against a whole-file JSON rewrite

    private func enqueueAgainstWholeFileJSON(queued: Int, in directory: URL) throws -> [String] {
        let store = try FileOutboxStore(directory: directory)
        defer { store.close() }
        let existing = (0..<queued).map { Self.message($0) }
        for message in existing { try store.enqueue(message) }
        let jsonURL = directory.appendingPathComponent("queue.json")
        let jsonBase = try JSONEncoder().encode(existing)
        try jsonBase.write(to: jsonURL)
        let json = WholeFileJSONQueue(url: jsonURL)
        var storeSamples: [Double] = []
        var jsonSamples: [Double] = []
        for index in 0..<queuedSamples {
            let message = Self.message(1_000_000 + index)
            storeSamples.append(try Bench.time { try store.enqueue(message) })
            try store.remove(message.id)  // back to `queued` messages, untimed
            jsonSamples.append(try Bench.time { try json.enqueue(message) })
            try jsonBase.write(to: jsonURL)
        }
        let ours = Bench.median(storeSamples)
        let theirs = Bench.median(jsonSamples)
        return [
            "enqueue p50 at \(queued.formatted()) queued", Bench.format(ours),
            "\(Bench.format(theirs)) (whole-file JSON: rewrite the array)", "\(Bench.ratio(theirs / ours)) faster",
            queued == 1_000 ? "≥ 20× faster" : "—", queued == 1_000 ? verdict(theirs / ours >= 20) : "",
        ]
    }

    // MARK: - Opening against plain decoding

    private func opening(in directory: URL) throws -> [String] {
        let messages = (0..<openCount).map { Self.message($0) }
        do {
            let store = try FileOutboxStore(directory: directory)
            for message in messages { try store.enqueue(message) }
            store.close()
        }
        let array = try JSONEncoder().encode(messages)
        var openSamples: [Double] = []
        var decodeSamples: [Double] = []
        for _ in 0..<openRepeats {
            var opened = 0
            openSamples.append(
                try Bench.time {
                    let store = try FileOutboxStore(directory: directory)
                    opened = store.count
                    store.close()
                })
            var decoded = 0
            decodeSamples.append(
                try Bench.time { decoded = try JSONDecoder().decode([Message].self, from: array).count })
            guard opened == openCount, decoded == openCount else { throw CocoaError(.fileReadCorruptFile) }
        }
        return row(
            "open a queue of \(openCount.formatted())", ours: Bench.median(openSamples),
            baseline: Bench.median(decodeSamples), baselineName: "JSONDecoder, one [Message] array", floor: 1.5)
    }

    // MARK: - Helpers

    private func row(_ name: String, ours: Double, baseline: Double, baselineName: String, floor: Double?) -> [String] {
        let ratio = ours / baseline
        return [
            name, Bench.format(ours), "\(Bench.format(baseline)) (\(baselineName))", Bench.ratio(ratio),
            floor.map { "≤ \(Bench.ratio($0))" } ?? "—", floor.map { verdict(ratio <= $0) } ?? "",
        ]
    }

    private func verdict(_ met: Bool) -> String { met ? "yes" : "**no**" }

    private func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// A message like the ones people queue on a train: a UUID, a short sentence, one of a few conversations.
    static func message(_ index: Int) -> Message {
        let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
        return Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: ConversationID("c\(index % 12 + 1)"),
            senderID: "me", text: "Running late, the train is stuck outside the station — see you at 6? (#\(index))",
            timestamp: base.addingTimeInterval(Double(index)), status: .queued)
    }
}
