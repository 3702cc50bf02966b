#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Message {
    /// The least step between a compose stamp and what it must come after: one millisecond.
    public static let composeStampStep: TimeInterval = 0.001

    /// A compose stamp (docs/design.md §2.3): `now`, the composing device's clock reading, raised to one
    /// `composeStampStep` past each of `earlier` — the conversation's durable stamp mark, the newest message the
    /// device holds there — so a device's stamps in a conversation never go back, whatever its clock does, and a
    /// reply comes after everything the device had when it was composed. Compose order is then timestamp, then id
    /// (`composeOrder`).
    public static func composeStamp(now: Date, after earlier: Date?...) -> Date {
        earlier.reduce(now) { stamp, floor in
            guard let floor else { return stamp }
            return max(stamp, floor.addingTimeInterval(composeStampStep))
        }
    }
}
