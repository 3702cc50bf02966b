import Foundation

/// What a process holds resident, by what is mapped: each shared library and executable by file name, the heap,
/// and anonymous memory, read from Linux's `/proc/<pid>/smaps`. `courier-bench memory` compares the driver's map
/// with a hello world's to name what costs memory above the floor (issue 33); the driver writes its own at exit
/// when `COURIER_MEMORY_MAP` names a file (`writeOwn(to:)`).
public struct MemoryMap: Equatable, Sendable {
    /// Resident bytes by mapping: a file's last path component, or `[heap]`, `[stack]`, `anonymous`.
    public var resident: [String: Int]

    /// The environment variable naming the file the driver writes its map to at exit.
    public static let environmentKey = "COURIER_MEMORY_MAP"

    /// Reads `smaps` text: every mapping's `Rss:` line, added up by the mapping's name. Lines it does not know are
    /// skipped, so a kernel that adds fields changes nothing.
    public init(smaps: String) {
        var resident: [String: Int] = [:]
        var name = "anonymous"
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                // A mapping's header: range, permissions, offset, device, inode, and the name when it has one.
                let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                name = path.isEmpty ? "anonymous" : path.split(separator: "/").last.map(String.init) ?? path
            } else if first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                resident[name, default: 0] += kilobytes * 1_024
            }
        }
        self.resident = resident
    }

    /// All of it, in bytes.
    public var total: Int { resident.values.reduce(0, +) }

    /// What this map holds beyond `floor`, mapping by mapping, the largest first (ties by name); mappings that
    /// hold less than the floor's are left out.
    public func above(_ floor: MemoryMap) -> [(name: String, bytes: Int)] {
        resident.compactMap { name, bytes in
            let extra = bytes - (floor.resident[name] ?? 0)
            return extra > 0 ? (name, extra) : nil
        }
        .sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.name < $1.name }
    }

    /// Writes this process's own `smaps` to the file `COURIER_MEMORY_MAP` names, when it names one; nothing
    /// otherwise, or where there is no `/proc`.
    public static func writeOwn(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment[environmentKey], !path.isEmpty, let smaps = readWhole("/proc/self/smaps")
        else { return }
        try? smaps.write(to: URL(fileURLWithPath: path))
    }

    /// The whole of a file read to its end: a `/proc` file says it is empty, and one read gives a page of it.
    static func readWhole(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var whole = Data()
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty { whole.append(chunk) }
        return whole
    }
}
