#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes of a record log: a file header, then one frame per record (documented in docs/storage-format.md).
///
/// Frame: marker `FF C0 4C 52` · CRC-32 (LE u32) · body length (LE u32) · frame version (u8) · body.
/// The CRC covers length, version and body, so a damaged length is caught too. The marker holds bytes that never
/// occur in UTF-8 text, so after damage the reader finds the next frame by scanning for it.
package enum RecordFrame {
    /// "CRLG" followed by the file format version (LE u32).
    static let fileMagic: [UInt8] = [0x43, 0x52, 0x4C, 0x47]
    /// The file format this code writes and reads.
    static let fileVersion: UInt32 = 1
    /// Magic plus version.
    static let fileHeaderSize = 8
    /// Starts every frame.
    static let marker: [UInt8] = [0xFF, 0xC0, 0x4C, 0x52]
    /// Marker, CRC, length, version.
    static let headerSize = 13
    /// The frame layout this code writes and reads.
    static let version: UInt8 = 1

    /// What the bytes at an offset hold.
    enum Parsed {
        /// A whole, intact frame; its body is at `body` and the next frame starts at `end`.
        case record(body: Range<Int>, end: Int)
        /// No intact frame starts here (torn, damaged, or not a frame at all).
        case damaged
        /// An intact frame of a layout newer than this code.
        case unsupportedVersion(UInt8)
    }

    // MARK: - Writing

    /// The file header.
    static var fileHeader: Data {
        var header = Data(fileMagic)
        appendLittleEndian(fileVersion, to: &header)
        return header
    }

    /// Appends the frame of `payload` to `frames`.
    static func append(_ payload: Data, to frames: inout Data) {
        let count = UInt32(payload.count)
        let lengthAndVersion: [UInt8] = [
            UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8),
            UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 24), version,
        ]
        let crc = payload.withUnsafeBytes { body in
            CRC32.update(lengthAndVersion.withUnsafeBytes { CRC32.checksum($0) }, with: body)
        }
        frames.append(contentsOf: marker)
        appendLittleEndian(crc, to: &frames)
        frames.append(contentsOf: lengthAndVersion)
        frames.append(payload)
    }

    /// The size of the frame of a payload of `bodyCount` bytes.
    static func frameSize(bodyCount: Int) -> Int { headerSize + bodyCount }

    // MARK: - Reading

    /// Parses the frame starting at `offset`, if an intact one does.
    static func parse(_ bytes: UnsafeRawBufferPointer, at offset: Int, maxBody: Int) -> Parsed {
        guard offset >= 0, bytes.count - offset >= headerSize, hasMarker(bytes, at: offset) else { return .damaged }
        let crc = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
        guard length <= maxBody, bytes.count - offset - headerSize >= length else { return .damaged }
        let covered = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + headerSize + length)])
        guard CRC32.checksum(covered) == crc else { return .damaged }
        let frameVersion = bytes[offset + 12]
        guard frameVersion == version else { return .unsupportedVersion(frameVersion) }
        let start = offset + headerSize
        return .record(body: start..<(start + length), end: start + length)
    }

    /// Whether the four bytes at `offset` (or all that remain, when fewer) are zero: where the marker of a frame
    /// would be, this ends the log.
    static func isZeroWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        (offset..<min(offset + marker.count, bytes.count)).allSatisfy { bytes[$0] == 0 }
    }

    /// Whether the frame marker starts at `offset`.
    static func hasMarker(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard bytes.count - offset >= marker.count else { return false }
        return bytes[offset] == marker[0] && bytes[offset + 1] == marker[1] && bytes[offset + 2] == marker[2]
            && bytes[offset + 3] == marker[3]
    }

    private static func appendLittleEndian(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
