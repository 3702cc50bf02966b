#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Makes message ids. Random UUIDs in an app. A replayed run (the driver, the simulation) takes its ids from a
/// durable id space (`IDNamespace` plus a counter reserved on disk), so no restart, lost settings file or other seed
/// repeats one; `seeded` is for tests and benchmarks, whose ids never meet a stored directory.
public struct IDGenerator: Sendable {
    private let make: @Sendable () -> MessageID

    /// Wraps a function that returns a fresh id on every call.
    public init(_ make: @escaping @Sendable () -> MessageID) { self.make = make }

    /// A fresh id.
    public func next() -> MessageID { make() }

    /// Random version-4 UUIDs.
    public static let random = IDGenerator { MessageID(UUID().uuidString.lowercased()) }

    /// UUID-shaped ids drawn from a seeded generator: the same seed gives the same sequence.
    public static func seeded(_ seed: UInt64) -> IDGenerator {
        let box = LockedRandom(seed: seed)
        return IDGenerator {
            let (high, low) = box.withGenerator { ($0.next(), $0.next()) }
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in 0..<8 {
                bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(i)))
                bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(i)))
            }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let uuid = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            return MessageID(uuid.uuidString.lowercased())
        }
    }
}
