import CourierData
import Foundation
import Testing

@Suite("CRC32")
struct CRC32Tests {
    @Test("matches the published check values")
    func knownVectors() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Data()) == 0)
        #expect(CRC32.checksum(Data("a".utf8)) == 0xE8B7_BE43)
        #expect(CRC32.checksum(Data("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test("eight bytes at a time gives the same checksum as one bit at a time, for every length up to 100")
    func slicingMatchesBitwise() {
        var random = SeededTestBytes(seed: 7)
        for length in 0...100 {
            let bytes = random.bytes(length)
            #expect(CRC32.checksum(bytes) == bitwiseCRC(bytes), "length \(length)")
        }
    }

    @Test("continuing a checksum over a second part equals the checksum of the whole, at every split")
    func incrementalUpdate() {
        let bytes = Array("incremental checksums let a frame's header and body be checked apart".utf8)
        let whole = CRC32.checksum(bytes)
        for split in 0...bytes.count {
            let first = bytes[..<split].withUnsafeBytes { CRC32.checksum($0) }
            let both = bytes[split...].withUnsafeBytes { CRC32.update(first, with: $0) }
            #expect(both == whole, "split at \(split)")
        }
    }

    private func bitwiseCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
