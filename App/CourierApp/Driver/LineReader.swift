import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads command lines from a file descriptor (a script, a pipe, a device) in fixed-size chunks, so memory stays
/// bounded whatever the input holds: a line longer than `maxLineBytes` is reported once and its bytes are dropped
/// as they arrive (`--script /dev/zero` costs one chunk of memory, not the whole stream).
///
/// Lines end in LF or CRLF; a last line without an end is a line too. A line that is not UTF-8 is reported, not
/// guessed at. Terminals use a line editor instead; this reader is for everything else.
final class LineReader {
    /// One line of input, or why it cannot be a command.
    enum Line: Equatable, Sendable {
        /// A line of text, without its line end.
        case text(String)
        /// The line's bytes are not UTF-8.
        case notUTF8
        /// The line is longer than `maxLineBytes` (its bytes were dropped).
        case tooLong
        /// Reading failed (the input ends here).
        case unreadable(String)
    }

    /// The longest line accepted: 1 MiB, line end excluded.
    static let maxLineBytes = 1 << 20

    private let read: (UnsafeMutableRawBufferPointer) -> Int
    private let chunkSize: Int
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var line: [UInt8] = []
    private var overflowing = false
    private var finished = false

    /// Reads through `read`, which fills the buffer it is given and returns the byte count: 0 at the end of input,
    /// negative on failure (with `errno` set).
    init(chunkSize: Int = 64 << 10, read: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.read = read
        self.chunkSize = max(1, chunkSize)
        chunk = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// Reads the open file descriptor `descriptor` (it stays open).
    convenience init(fileDescriptor descriptor: Int32) {
        self.init { buffer in
            while true {
                let count = posixRead(descriptor, buffer)
                if count < 0, errno == EINTR { continue }
                return count
            }
        }
    }

    /// The next line, or nil at the end of input.
    func next() -> Line? {
        while !finished {
            if chunkStart == chunkEnd {
                let count = chunk.withUnsafeMutableBytes { read($0) }
                if count < 0 {
                    finished = true
                    return .unreadable(String(cString: strerror(errno)))
                }
                if count == 0 {
                    finished = true
                    return overflowing || line.isEmpty ? nil : finish()
                }
                chunkStart = 0
                chunkEnd = count
            }
            let available = chunk[chunkStart..<chunkEnd]
            if let newline = available.firstIndex(of: 0x0A) {
                let wasOverflowing = overflowing
                take(chunk[chunkStart..<newline])
                chunkStart = newline + 1
                if overflowing {
                    overflowing = false
                    // Reported when it went past the limit, unless that happens only now.
                    if wasOverflowing { continue }
                    return .tooLong
                }
                return finish()
            }
            let wasOverflowing = overflowing
            take(available)
            chunkStart = chunkEnd
            // Said at once, so an endless line (`/dev/zero`) fails the moment it passes the limit.
            if overflowing, !wasOverflowing { return .tooLong }
        }
        return nil
    }

    /// Adds bytes to the current line, or drops them once the line is too long.
    private func take(_ bytes: ArraySlice<UInt8>) {
        guard !overflowing else { return }
        // One byte of slack for the CR of a CRLF ending.
        if line.count + bytes.count > Self.maxLineBytes + 1 {
            overflowing = true
            line = []
            return
        }
        line.append(contentsOf: bytes)
    }

    private func finish() -> Line {
        defer { line = [] }
        if line.last == 0x0D { line.removeLast() }
        guard line.count <= Self.maxLineBytes else { return .tooLong }
        guard let text = String(validating: line, as: UTF8.self) else { return .notUTF8 }
        return .text(text)
    }
}

/// `read(2)`, whose name the initializer's closure parameter shadows.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
