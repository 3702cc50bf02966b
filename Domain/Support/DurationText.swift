#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads durations such as `500ms`, `10s`, `5m`, `2h`, `8d` (the driver's `advance`, the server's
/// `--token-lifetime`).
public enum DurationText {
    /// The duration `text` writes, from zero to ten years; nil for anything else.
    public static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400)]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            guard let amount = Double(text.dropLast(suffix.count)), amount >= 0, amount.isFinite,
                amount * seconds <= 86_400 * 3_650
            else { return nil }
            return .milliseconds(Int64((amount * seconds * 1_000).rounded()))
        }
        return nil
    }
}
