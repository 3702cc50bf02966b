/// Deterministic test bytes.
struct SeededTestBytes {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }
}
