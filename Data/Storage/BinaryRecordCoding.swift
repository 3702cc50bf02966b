import Foundation

/// Writes the little-endian binary fields of a record body (docs/storage-format.md, "Outbox records").
struct BinaryRecordWriter {
    private(set) var data = Data()

    init(capacity: Int = 128) { data.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { data.append(value) }

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { data.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
    }

    /// A u32 byte count, then the UTF-8 bytes.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }

    /// A presence byte (0 or 1), then the value when present.
    mutating func optional<T>(_ value: T?, _ write: (inout BinaryRecordWriter, T) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }
}

/// Reads what `BinaryRecordWriter` wrote; every read past the end or of a malformed field throws.
struct BinaryRecordReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int() throws -> Int {
        try need(8)
        defer { offset += 8 }
        return Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
    }

    mutating func double() throws -> Double {
        try need(8)
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    mutating func string() throws -> String {
        try need(4)
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        offset += 4
        try need(count)
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
    }

    mutating func optional<T>(_ read: (inout BinaryRecordReader) throws -> T) throws -> T? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        case let flag: throw OutboxRecordMappingError(description: "presence flag \(flag)")
        }
    }

    private func need(_ count: Int) throws {
        guard count >= 0, bytes.count - offset >= count else {
            throw OutboxRecordMappingError(description: "a record body ends early")
        }
    }
}
