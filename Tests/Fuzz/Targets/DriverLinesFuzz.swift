import CourierDomain
import Foundation

// Fuzz target `driver-lines`: what the driver makes of a script's bytes — `LineReader` reading them in chunks, the
// split of each line into a command word and its arguments, and the parsers those arguments meet (`expect`'s
// expectation, a message reference, a duration, the program's options), then an expectation checked against a
// state document.
@testable import CourierApp

private let document: JSONValue = .object([
    ("screen", .string("chat")),
    (
        "messages",
        .array([
            .object([("text", .string("hello")), ("status", .string("sent")), ("attempts", .int(0))]),
            .object([("text", .string("queued one")), ("status", .string("queued")), ("attempts", .int(2))]),
        ])
    ),
    ("queue", .object([("count", .int(1)), ("ids", .array([.string("3f9a01c2")]))])),
    ("banner", .null),
])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDriverLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let chunkSize = 1 + Int(input.byte() % 64)
    let bytes = input.rest
    var offset = 0
    let reader = LineReader(chunkSize: chunkSize) { buffer in
        let count = min(buffer.count, bytes.count - offset)
        buffer.copyBytes(from: bytes[offset..<(offset + count)])
        offset += count
        return count
    }
    var lines: [LineReader.Line] = []
    while let line = reader.next() {
        lines.append(line)
        require(lines.count <= bytes.count + 1, "more lines than bytes")
    }
    require(lines == expectedLines(bytes), "lines read in chunks of \(chunkSize) differ from the input's lines")
    MainActor.assumeIsolated {
        for case .text(let line) in lines { command(line) }
    }
    return 0
}

/// The lines of `bytes` as docs/driver.md describes them: ended by LF or CRLF, a last line without an end counting
/// too, each one text when it is UTF-8.
private func expectedLines(_ bytes: [UInt8]) -> [LineReader.Line] {
    var pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    return pieces.map { piece in
        let line = piece.last == 0x0D ? piece.dropLast() : piece
        return String(validating: line, as: UTF8.self).map(LineReader.Line.text) ?? .notUTF8
    }
}

/// One line as the driver takes it apart.
@MainActor
private func command(_ line: String) {
    let shown = Driver.escaped(line)
    require(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "escaped")
    guard let (word, arguments) = Driver.command(in: line) else { return }
    require(!word.isEmpty && !word.hasPrefix("#") && !word.contains(" "), "command word \(word)")
    if let expectation = try? Expectation.parse(arguments) {
        require(expectation.expected.isFinite, "an expectation of a number that is not finite")
        _ = expectation.check(document)
    }
    _ = try? Expectation.parsePath(arguments)
    _ = try? MessageReference.parse(arguments)
    if let duration = DurationText.parse(arguments) {
        require(duration >= .zero && duration <= .seconds(86_400 * 3_650), "duration \(arguments)")
    }
    _ = try? DriverOptions.parse(arguments.split(separator: " ").map(String.init))
}
