import CourierData
import CourierDomain
import CourierFakes
import Foundation
import Testing

/// The storage engine over the simulated disk: power cuts at every kind of instant, torn writes included.
@Suite("Storage engine on a simulated disk")
struct SimulatedCrashRecoveryTests {
    private static let seeds: Range<UInt64> = 0..<150

    private func record(_ number: Int) -> Data { Data("record \(number): {\"text\":\"hello\"}".utf8) }

    @Test("a record log loses no acknowledged record and reports no corruption after a power cut mid-append")
    func recordLogSurvivesPowerCuts() throws {
        var tornTails = 0
        for seed in Self.seeds {
            // Given a log on a disk that may tear unsynced writes, and some acknowledged appends
            let random = LockedRandom(seed: seed)
            let fs = SimulatedFileSystem(tornWrites: random)
            try fs.createDirectory("/d")
            var (log, _, _) = try RecordLog.open(path: "/d/test.log", fileSystem: fs)
            var acknowledged: [Data] = []
            for round in 0..<3 {
                // When the power goes a few operations into a burst of appends (and sometimes a compaction)
                fs.cutPower(afterOperations: random.withGenerator { Int.random(in: 0..<8, using: &$0) })
                var number = acknowledged.count
                while !fs.isPoweredOff {
                    do {
                        if number % 5 == 4 {
                            try log.compact(keeping: acknowledged)
                        } else {
                            try log.append(contentsOf: [record(round * 100 + number)])
                            acknowledged.append(record(round * 100 + number))
                        }
                    } catch {}
                    number += 1
                }
                fs.crash()
                let reopened = try RecordLog.open(path: "/d/test.log", fileSystem: fs)
                // Then every acknowledged record is there, in order, and at most the unacknowledged one after them
                #expect(Array(reopened.records.prefix(acknowledged.count)) == acknowledged, "seed \(seed)")
                #expect(reopened.records.count <= acknowledged.count + 1, "seed \(seed)")
                #expect(reopened.report.corruptRecords == 0, "seed \(seed)")
                if reopened.report.truncatedBytes > 0 { tornTails += 1 }
                acknowledged = reopened.records
                log = reopened.log
            }
        }
        // And some of those power cuts did tear a write, which recovery cut off
        #expect(tornTails > 0)
    }

    @Test("the outbox store reopens every acknowledged message after a power cut at any operation")
    func outboxSurvivesPowerCuts() throws {
        let start = Date(timeIntervalSince1970: 1_767_258_000)
        for seed in Self.seeds {
            // Given an outbox on a disk that may tear unsynced writes
            let random = LockedRandom(seed: seed)
            let fs = SimulatedFileSystem(tornWrites: random)
            let directory = URL(fileURLWithPath: "/data/client")
            var store = try FileOutboxStore(directory: directory, fileSystem: fs)
            var acknowledged: [MessageID: String] = [:]
            fs.cutPower(afterOperations: random.withGenerator { Int.random(in: 0..<40, using: &$0) })
            var number = 0
            /// The change the power cut interrupted: it threw, so it may or may not have happened.
            var interrupted: (id: MessageID, text: String?)?
            // When messages are enqueued, edited, marked sending and removed until the power goes
            while !fs.isPoweredOff {
                let id = MessageID("m\(number)")
                let message = Message(
                    id: id, conversationID: "c1", senderID: "me", text: "text \(number)",
                    timestamp: start.addingTimeInterval(Double(number)), status: .queued)
                let sorted = acknowledged.keys.sorted { $0.rawValue < $1.rawValue }
                do {
                    switch number % 4 {
                    case 3 where !acknowledged.isEmpty:
                        interrupted = (sorted[0], nil)
                        try store.remove(sorted[0])
                        acknowledged[sorted[0]] = nil
                    case 2 where !acknowledged.isEmpty:
                        interrupted = (sorted[sorted.count - 1], "edited \(number)")
                        try store.updateText(of: sorted[sorted.count - 1], to: "edited \(number)")
                        acknowledged[sorted[sorted.count - 1]] = "edited \(number)"
                    default:
                        interrupted = nil
                        try store.enqueue(message)
                        acknowledged[id] = message.text
                        _ = try? store.updateStatus(of: id, to: .sending, at: start, attempts: 1, lastError: nil)
                    }
                } catch {}
                number += 1
            }
            fs.crash()
            store = try FileOutboxStore(directory: directory, fileSystem: fs)
            // Then every acknowledged message is back with its acknowledged text, none left `sending`
            let reopened = Dictionary(uniqueKeysWithValues: store.all().map { ($0.id, $0) })
            for (id, text) in acknowledged {
                if let interrupted, interrupted.id == id {
                    let outcomes: Set<String?> = [text, interrupted.text]
                    #expect(outcomes.contains(reopened[id]?.text), "seed \(seed): \(id)")
                } else {
                    #expect(reopened[id]?.text == text, "seed \(seed): \(id)")
                }
            }
            #expect(store.all().allSatisfy { $0.status == .queued }, "seed \(seed)")
            #expect(store.recovery.corruptRecords == 0, "seed \(seed)")
        }
    }
}
