import Foundation
import Testing

@testable import CourierApp

@Suite("LineReader")
struct LineReaderTests {
    /// A reader over `bytes`, handed out `chunk` bytes at a time; counts the bytes it was asked for.
    private final class Source {
        var bytes: [UInt8]
        var offset = 0
        var endless: UInt8?
        var delivered = 0
        init(_ bytes: [UInt8], endless: UInt8? = nil) {
            self.bytes = bytes
            self.endless = endless
        }
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            if let endless {
                for index in 0..<buffer.count { buffer[index] = endless }
                delivered += buffer.count
                return buffer.count
            }
            let count = min(buffer.count, bytes.count - offset)
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
    }

    private func lines(_ text: [UInt8], chunk: Int = 7) -> [LineReader.Line] {
        let source = Source(text)
        let reader = LineReader(chunkSize: chunk) { source.read(into: $0) }
        var lines: [LineReader.Line] = []
        while let line = reader.next() { lines.append(line) }
        return lines
    }

    @Test("LF and CRLF both end a line; a last line without an end is a line; chunk edges change nothing")
    func lineEnds() {
        let text = Array("open c2\r\nsend hi\nexpect x == 1\r\n\r\nlast".utf8)
        for chunk in [1, 2, 3, 7, 64] {
            #expect(
                lines(text, chunk: chunk) == [
                    .text("open c2"), .text("send hi"), .text("expect x == 1"), .text(""), .text("last"),
                ])
        }
        #expect(lines(Array("a\r".utf8)) == [.text("a")])
        #expect(lines([]) == [])
    }

    @Test("a line that is not UTF-8 is reported as such; the lines around it are read")
    func notUTF8() {
        #expect(lines([0x61, 0x0A, 0xFF, 0xFE, 0x0A, 0x62]) == [.text("a"), .notUTF8, .text("b")])
        #expect(lines(Array("é ✈️\n".utf8)) == [.text("é ✈️")])
    }

    @Test("a line past 1 MiB is reported once, its bytes dropped; the next line is read")
    func tooLong() {
        let long = [UInt8](repeating: 0x61, count: LineReader.maxLineBytes + 1)
        let exact = [UInt8](repeating: 0x62, count: LineReader.maxLineBytes)
        let result = lines(long + [0x0A] + exact + [0x0D, 0x0A] + Array("next".utf8), chunk: 64 << 10)
        #expect(result.count == 3)
        #expect(result.first == .tooLong)
        #expect(result.last == .text("next"))
        #expect(result[1] == .text(String(repeating: "b", count: LineReader.maxLineBytes)))
    }

    @Test("an endless line (/dev/zero) is reported as soon as it passes the limit, having read just past it")
    func endless() {
        let source = Source([], endless: 0)
        let reader = LineReader(chunkSize: 64 << 10) { source.read(into: $0) }
        #expect(reader.next() == .tooLong)
        #expect(source.delivered <= LineReader.maxLineBytes + (128 << 10))
    }
}
