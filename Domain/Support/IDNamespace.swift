#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// 128 bits that make a space of message ids of its own: `id(at:)` maps each counter value to a distinct UUID-shaped
/// id, and ids from two different namespaces coincide only when 58 bits of random namespace do (about 2⁻⁵⁸ per
/// pair), so a counter that never repeats within a namespace gives ids that never repeat anywhere.
///
/// The layout keeps all 64 bits of a bijective mix of the counter (so one namespace never repeats an id) and fills
/// the rest with namespace bits; the version nibble says 4 and the variant bits say RFC 4122, like a random UUID.
/// The first characters come from the mixed counter, so consecutive ids differ at once (short id prefixes stay
/// unique in listings).
public struct IDNamespace: Hashable, Sendable {
    /// Mixed with the counter: two namespaces that share `tail` still order their ids differently.
    public let key: UInt64
    /// Copied into the id (58 of its bits): what keeps the ids of two namespaces apart.
    public let tail: UInt64

    /// Wraps stored namespace bits.
    public init(key: UInt64, tail: UInt64) {
        self.key = key
        self.tail = tail
    }

    /// A namespace drawn from the system's random source: what an app (and any non-replayed run) uses.
    public static func random() -> IDNamespace {
        var system = SystemRandomNumberGenerator()
        return IDNamespace(key: system.next(), tail: system.next())
    }

    /// A namespace derived from a seed, for a run that must replay byte for byte on a new data directory. Only safe
    /// where nothing older than that directory can hold ids (see docs/reliability.md).
    public static func seeded(_ seed: UInt64) -> IDNamespace {
        var generator = SeededRandom(seed: seed ^ 0x6964_5F6E_616D_6573)
        return IDNamespace(key: generator.next(), tail: generator.next())
    }

    /// The id at `counter`: distinct for distinct counters.
    public func id(at counter: UInt64) -> MessageID {
        let mixed = Self.mix(counter &+ key)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: mixed >> (56 - 8 * UInt64(index))) }
        // Bytes 0-5 hold the top 48 bits; the remaining 16 go around the version nibble and the variant bits.
        bytes[6] = 0x40 | UInt8(truncatingIfNeeded: (mixed >> 12) & 0x0F)
        bytes[7] = UInt8(truncatingIfNeeded: mixed >> 4)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: (mixed & 0x0F) << 2) | UInt8(truncatingIfNeeded: tail >> 62)
        for index in 9..<16 { bytes[index] = UInt8(truncatingIfNeeded: tail >> (8 * UInt64(15 - index))) }
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return MessageID(uuid.uuidString.lowercased())
    }

    /// The 64-bit finalizer of MurmurHash3: xor-shifts and multiplications by odd constants, so a bijection.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return z ^ (z >> 33)
    }
}
