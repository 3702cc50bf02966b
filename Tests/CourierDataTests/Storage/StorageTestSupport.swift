import Foundation

@testable import CourierData
@testable import CourierStore

/// Runs `body(thread)` on `threads` real threads at once and returns when all are done.
func storageRunOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for thread in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            body(thread)
            group.leave()
        }
    }
    group.wait()
}

/// Writes `records` to a new log at `path` (all but the last in one batch, then the last alone) and closes it;
/// returns where the last record starts and where the log ends, for a test that tears the last record.
func storageLog(of records: [Data], at path: String) throws -> (lastStart: Int, end: Int) {
    let (log, _, _) = try RecordLog.open(path: path)
    try log.append(contentsOf: Array(records.dropLast()))
    let lastStart = log.byteCount
    if let last = records.last { try log.append(last) }
    let end = log.byteCount
    log.close()
    return (lastStart, end)
}

/// Runs `flock -n PATH true` in a child process: 0 when it got the lock, 1 when someone else holds it.
func storageFlockInChildProcess(_ path: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    process.arguments = ["-n", path, "true"]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

extension Data {
    /// The UTF-8 bytes of `text`.
    static func storageText(_ text: String) -> Data { Data(text.utf8) }

    /// `count` distinct records, each ending in a non-zero byte.
    static func storagePayloads(_ count: Int, prefix: String = "record") -> [Data] {
        (0..<count).map { storageText("\(prefix) \($0): {\"text\":\"hello\"}") }
    }

    /// A record log's bytes without the zero-filled space its file holds ahead of the records (what a log written
    /// before that space existed holds). Every test record ends in a non-zero byte.
    var withoutZeroTail: Data {
        guard let last = lastIndex(where: { $0 != 0 }) else { return Data() }
        return Data(self[startIndex...last])
    }
}
