#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes the little-endian binary fields of a record body: the one layout of every store
/// (docs/storage-format.md §3).
package struct BinaryRecordWriter {
    /// The body written so far.
    package private(set) var data = Data()

    /// Starts an empty body with room for `capacity` bytes.
    package init(capacity: Int = 128) { data.reserveCapacity(capacity) }

    /// One byte.
    package mutating func byte(_ value: UInt8) { data.append(value) }

    package mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { data.append(contentsOf: $0) }
    }

    package mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
    }

    /// A u32 byte count, then the UTF-8 bytes.
    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }

    /// A u32 byte count, then the bytes.
    package mutating func bytes(_ value: Data) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(value)
    }

    /// A u32 count, then each element.
    package mutating func array<T>(_ values: [T], _ write: (inout BinaryRecordWriter, T) -> Void) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: values.count).littleEndian) { data.append(contentsOf: $0) }
        for value in values { write(&self, value) }
    }

    /// A presence byte (0 or 1), then the value when present.
    package mutating func optional<T>(_ value: T?, _ write: (inout BinaryRecordWriter, T) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }
}
