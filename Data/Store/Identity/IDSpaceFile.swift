import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes of `client/ids` (docs/storage-format.md): magic `CRID`, a version byte, the namespace's key and tail,
/// the counter value every id below which is used, and a CRC-32 of everything before it. Integers little-endian.
package struct IDSpaceFile: Equatable {
    /// The layout this code writes; a newer one is refused.
    static let currentVersion: UInt8 = 1
    private static let magic: [UInt8] = Array("CRID".utf8)
    private static let length = 4 + 1 + 8 + 8 + 8 + 4

    var namespace: IDNamespace
    var reservedThrough: UInt64

    /// What a malformed file is.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    init(namespace: IDNamespace, reservedThrough: UInt64) {
        self.namespace = namespace
        self.reservedThrough = reservedThrough
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count == Self.length else { throw Malformed(description: "\(bytes.count) bytes") }
        guard Array(bytes[0..<4]) == Self.magic else { throw Malformed(description: "not an id file") }
        guard bytes[4] == Self.currentVersion else { throw Malformed(description: "version \(bytes[4])") }
        guard Self.word32(bytes, at: Self.length - 4) == CRC32.checksum(bytes[0..<(Self.length - 4)]) else {
            throw Malformed(description: "checksum mismatch")
        }
        namespace = IDNamespace(key: Self.word64(bytes, at: 5), tail: Self.word64(bytes, at: 13))
        reservedThrough = Self.word64(bytes, at: 21)
    }

    func encoded() -> Data {
        var bytes = Self.magic + [Self.currentVersion]
        for word in [namespace.key, namespace.tail, reservedThrough] {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        let crc = CRC32.checksum(bytes)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: crc >> shift)) }
        return Data(bytes)
    }

    private static func word64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    private static func word32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}
