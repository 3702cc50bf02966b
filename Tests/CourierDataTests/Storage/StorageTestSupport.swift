import Foundation

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

extension Data {
    /// The UTF-8 bytes of `text`.
    static func storageText(_ text: String) -> Data { Data(text.utf8) }

    /// A record log's bytes without the zero-filled space its file holds ahead of the records (what a log written
    /// before that space existed holds). Every test record ends in a non-zero byte.
    var withoutZeroTail: Data {
        guard let last = lastIndex(where: { $0 != 0 }) else { return Data() }
        return Data(self[startIndex...last])
    }
}
