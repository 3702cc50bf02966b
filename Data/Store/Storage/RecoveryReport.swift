/// What opening a record log found and repaired.
public struct RecoveryReport: Hashable, Sendable, CustomStringConvertible {
    /// Bytes cut from the end of the file: an incomplete (torn) last write, never acknowledged to anyone.
    public var truncatedBytes: Int
    /// Damaged records skipped in the middle of the file (each frame marker inside a damaged stretch counts once).
    public var corruptRecords: Int
    /// Intact records read.
    public var recoveredRecords: Int

    /// Creates a report.
    public init(truncatedBytes: Int = 0, corruptRecords: Int = 0, recoveredRecords: Int = 0) {
        self.truncatedBytes = truncatedBytes
        self.corruptRecords = corruptRecords
        self.recoveredRecords = recoveredRecords
    }

    /// Whether the file needed no repair.
    public var isClean: Bool { truncatedBytes == 0 && corruptRecords == 0 }

    /// One line for a person: what was read and what was repaired.
    public var description: String {
        var parts = ["\(recoveredRecords) \(recoveredRecords == 1 ? "record" : "records") recovered"]
        if corruptRecords > 0 {
            parts.append("\(corruptRecords) corrupt \(corruptRecords == 1 ? "record" : "records") skipped")
        }
        if truncatedBytes > 0 {
            parts.append("a torn tail of \(truncatedBytes) \(truncatedBytes == 1 ? "byte" : "bytes") truncated")
        }
        if isClean { parts.append("clean") }
        return parts.joined(separator: ", ")
    }
}
