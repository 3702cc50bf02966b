/// An FNV-1a hash over the lines a simulation records: equal hashes for equal histories, cheap to keep.
struct SimulationTrace {
    private(set) var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The last lines, for a failure report.
    private(set) var recent: [String] = []

    mutating func record(_ line: String) {
        for byte in line.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash ^= 0x0A
        hash = hash &* 0x0000_0100_0000_01B3
        recent.append(line)
        if recent.count > 12 { recent.removeFirst() }
    }
}
