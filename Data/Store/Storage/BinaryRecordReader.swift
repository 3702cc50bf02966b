#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads what `BinaryRecordWriter` wrote; every read past the end or of a malformed field throws.
package struct BinaryRecordReader {
    private let buffer: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { buffer = bytes }

    /// Reads a whole record body with `read`, which must use every byte of it.
    package static func reading<T>(_ body: Data, _ read: (inout BinaryRecordReader) throws -> T) throws -> T {
        try body.withUnsafeBytes { try reading($0, read) }
    }

    /// Reads a whole record body, given in place, with `read`, which must use every byte of it.
    static func reading<T>(_ body: UnsafeRawBufferPointer, _ read: (inout BinaryRecordReader) throws -> T) throws -> T {
        var reader = BinaryRecordReader(body)
        let value = try read(&reader)
        guard reader.isAtEnd else { throw RecordFormatError(description: "bytes after a record") }
        return value
    }

    /// Reads a body's version byte: one from `oldest` to `current`. A higher one throws `RecordNewerVersion`
    /// (a newer build wrote it), a lower one `RecordFormatError`.
    package mutating func version(from oldest: UInt8, through current: UInt8) throws -> UInt8 {
        let version = try byte()
        guard version <= current else { throw RecordNewerVersion(version: version) }
        guard version >= oldest else { throw RecordFormatError(description: "record version \(version)") }
        return version
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == buffer.count }

    package mutating func byte() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return buffer[offset]
    }

    /// A byte naming a case of `type`.
    package mutating func enumeration<T: RawRepresentable>(_ type: T.Type) throws -> T where T.RawValue == UInt8 {
        let raw = try byte()
        guard let value = T(rawValue: raw) else { throw RecordFormatError(description: "unknown \(T.self) \(raw)") }
        return value
    }

    package mutating func int() throws -> Int {
        try need(8)
        defer { offset += 8 }
        return Int(Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
    }

    package mutating func double() throws -> Double {
        try need(8)
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    /// A u32 byte count, then UTF-8 bytes.
    package mutating func string() throws -> String {
        let count = try length()
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)]), as: UTF8.self)
    }

    package mutating func bytes() throws -> Data {
        let count = try length()
        defer { offset += count }
        return Data(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)]))
    }

    package mutating func array<T>(_ read: (inout BinaryRecordReader) throws -> T) throws -> [T] {
        let count = Int(try uint32())
        // Each element takes at least one byte, so a count beyond the bytes left is damage, not a huge allocation.
        try need(count)
        return try (0..<count).map { _ in try read(&self) }
    }

    package mutating func optional<T>(_ read: (inout BinaryRecordReader) throws -> T) throws -> T? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        case let flag: throw RecordFormatError(description: "presence flag \(flag)")
        }
    }

    /// A u32 count of the bytes that follow, all of which must be there.
    private mutating func length() throws -> Int {
        let count = Int(try uint32())
        try need(count)
        return count
    }

    private mutating func uint32() throws -> UInt32 {
        try need(4)
        defer { offset += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    private func need(_ count: Int) throws {
        guard count >= 0, buffer.count - offset >= count else {
            throw RecordFormatError(description: "a record body ends early")
        }
    }
}
