import CourierDomain

/// The driver's input lines, handed from the thread that reads them to the driver on the main actor.
///
/// The driver takes a line already read without leaving its thread. The reader runs ahead by at most `capacity`
/// lines or `byteCapacity` bytes (a single longer line still passes), so a fast input cannot pile up in memory. Once
/// full, it waits until the driver has taken all but `capacity / 4`: one wake-up per batch of lines, not one per line.
/// A driver that waits for a line the reader has not read yet is resumed by the reader as it reads it.
final class LineChannel: @unchecked Sendable {
    /// How many lines the reader may be ahead.
    let capacity: Int
    /// How many bytes of text the reader may be ahead.
    let byteCapacity: Int
    private let lock = Lock()
    private var lines: [LineReader.Line] = []
    /// The index in `lines` of the next line to take (taken lines are dropped in batches).
    private var head = 0
    private var bytes = 0
    private var finished = false
    private var readerWaits = false
    private var waiter: CheckedContinuation<LineReader.Line?, Never>?
    private var wakeUps = 0

    /// How many lines read are waiting for the driver.
    var bufferedCount: Int { lock.withLock { lines.count - head } }
    /// How many times the driver woke the reader, which waited for room.
    var readerWakeUps: Int { lock.withLock { wakeUps } }
    /// Blocks until the reader waits for room or has finished: the reader is a thread of its own.
    func waitUntilReaderWaitsOrFinished() {
        lock.lock()
        while !readerWaits && !finished { lock.wait() }
        lock.unlock()
    }

    /// A channel that lets the reader run `capacity` lines or `byteCapacity` bytes ahead.
    init(capacity: Int = 64, byteCapacity: Int = 1 << 20) {
        self.capacity = max(capacity, 1)
        self.byteCapacity = max(byteCapacity, 1)
    }

    /// The reader's side: hands `line` over, then waits while the driver is far enough behind.
    func put(_ line: LineReader.Line) {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: line)
            return
        }
        lines.append(line)
        bytes += Self.size(of: line)
        while lines.count - head >= capacity || bytes >= byteCapacity {
            readerWaits = true
            // Whoever waits to see the reader wait (`waitUntilReaderWaitsOrFinished()`) sees it now.
            lock.broadcast()
            lock.wait()
        }
        lock.unlock()
    }

    /// The reader's side: the input ended; the driver takes what is left, then nil.
    func finish() {
        lock.lock()
        finished = true
        let waiter = self.waiter
        self.waiter = nil
        lock.broadcast()
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// The driver's side: the next line, nil once the input ended and every line was taken. It runs on the caller's
    /// actor (the driver's main actor): a line already read is taken without a hop to another thread.
    nonisolated(nonsending) func next() async -> LineReader.Line? {
        lock.lock()
        if head < lines.count {
            let line = lines[head]
            head += 1
            bytes -= Self.size(of: line)
            if head == lines.count {
                lines.removeAll(keepingCapacity: true)
                head = 0
            }
            if readerWaits, lines.count - head <= capacity / 4, bytes < byteCapacity {
                readerWaits = false
                wakeUps += 1
                lock.broadcast()
            }
            lock.unlock()
            return line
        }
        if finished {
            lock.unlock()
            return nil
        }
        return await withCheckedContinuation { continuation in
            waiter = continuation
            lock.unlock()
        }
    }

    private static func size(of line: LineReader.Line) -> Int {
        if case .text(let text) = line { return text.utf8.count }
        return 0
    }
}
