import CourierData
import CourierDomain
import Foundation

/// `courier-bench writes`: 10,000 writes through `OfflineWriteQueue` on a synced record log —
/// enqueue one by one, then one sync through a no-op executor — against the floor: `RecordLog.append` of the same
/// 10,000 JSON payloads, one durable append each. Every enqueue and every delivery must land one synced record
/// (the write, then its removal), so both sides pay one `fdatasync` per operation.
@MainActor
struct WritesBenchmark {
    private let writes = 10_000
    private let rounds = 8

    private struct NameChange: Encodable {
        let displayName: String
        let revision: Int
    }

    func run() async throws {
        let root = try Bench.temporaryDirectory("writes")
        defer { try? FileManager.default.removeItem(at: root) }
        let storage = try RecordLogStorage(path: root.appendingPathComponent("writes.log").path)
        defer { storage.close() }
        let queue = try OfflineWriteQueue(
            storage: storage, clock: SystemClock(), connectivity: ManualConnectivity(),
            configuration: WriteQueueConfiguration(capacity: writes), executors: ["profile.name": { _ in }],
            ids: .seeded(21))
        let raw = try RecordLog.open(path: root.appendingPathComponent("raw.log").path).log
        defer { raw.close() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payloads = (0..<writes).map { NameChange(displayName: "Mia Rossi (\($0))", revision: $0) }
        let encoded = try payloads.map { try encoder.encode($0) }

        // Enqueue and raw append alternate in rounds, so that both meet the same disk weather.
        var enqueueSamples: [Double] = []
        var appendSamples: [Double] = []
        let perRound = writes / rounds
        for round in 0..<rounds {
            for index in round * perRound..<(round + 1) * perRound {
                let start = DispatchTime.now().uptimeNanoseconds
                try queue.enqueue(kind: "profile.name", key: nil, payload: payloads[index])
                enqueueSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            for index in round * perRound..<(round + 1) * perRound {
                appendSamples.append(try Bench.time { try raw.append(encoded[index]) })
            }
        }
        let queuedBytes = storage.byteCount
        guard queue.count == writes else { throw BenchFailure("\(queue.count) of \(writes) writes queued") }

        // The sync's baseline brackets it, half before and half after, for the same reason.
        let half = writes / 2
        var bracket = try Bench.time { for payload in encoded[..<half] { try raw.append(payload) } }
        let start = DispatchTime.now().uptimeNanoseconds
        let delivered = await queue.syncWhenOnline()
        let sync = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        bracket += try Bench.time { for payload in encoded[half...] { try raw.append(payload) } }
        guard delivered == writes, queue.count == 0 else {
            throw BenchFailure("sync delivered \(delivered) of \(writes)")
        }
        let enqueue = Bench.median(enqueueSamples)
        let append = Bench.median(appendSamples)
        let appendTotal = appendSamples.reduce(0, +)
        let enqueueTotal = enqueueSamples.reduce(0, +)
        let payloadBytes = encoded.reduce(0) { $0 + $1.count } / writes
        let rows = [
            [
                "enqueue p50 (\(writes.formatted()) writes, ~\(queuedBytes / writes) B/record on disk)",
                Bench.format(enqueue), "\(Bench.format(append)) (RecordLog.append, \(payloadBytes) B payload)",
                Bench.ratio(enqueue / append), "≤ 1.50×", Bench.verdict(enqueue / append <= 1.5),
            ],
            [
                "enqueue p99", Bench.format(Bench.percentile(enqueueSamples, 99)),
                Bench.format(Bench.percentile(appendSamples, 99)),
                Bench.ratio(Bench.percentile(enqueueSamples, 99) / Bench.percentile(appendSamples, 99)), "—", "",
            ],
            [
                "enqueue all \(writes.formatted()), total", Bench.format(enqueueTotal),
                "\(Bench.format(appendTotal)) (\(writes.formatted()) appends)", Bench.ratio(enqueueTotal / appendTotal),
                "—", "",
            ],
            [
                "sync all \(writes.formatted()) (no-op executor), total", Bench.format(sync),
                "\(Bench.format(bracket)) (\(writes.formatted()) appends, half before, half after)",
                Bench.ratio(sync / bracket), "≤ 1.50×", Bench.verdict(sync / bracket <= 1.5),
            ],
        ]
        print("## courier-bench writes\n")
        print(Bench.table(header: ["measurement", "Courier", "baseline", "ratio", "target", "met"], rows: rows))
    }
}
