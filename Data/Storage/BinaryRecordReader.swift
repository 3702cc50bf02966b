import Foundation

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
