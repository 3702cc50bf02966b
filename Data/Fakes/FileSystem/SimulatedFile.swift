import Foundation

/// One file of a `SimulatedFileSystem` (an inode): what survives a power cut and what does not yet.
///
/// `durable` is what the platter holds; `pending` are the changes made since the last sync, in order; `current` is
/// `durable` with every pending change applied — what reads see.
struct SimulatedFile {
    /// A change not yet synced.
    enum Change {
        case write(Data, offset: Int)
        case truncate(Int)
    }

    private(set) var durable = Data()
    private(set) var current = Data()
    private(set) var pending: [Change] = []

    /// Writes `data` at `offset` (zero-filling a gap past the end). Not durable until `sync`.
    mutating func write(_ data: Data, at offset: Int) {
        Self.apply(.write(data, offset: offset), to: &current)
        pending.append(.write(data, offset: offset))
    }

    /// Cuts (or zero-extends) the file to `size`. Not durable until `sync`.
    mutating func truncate(to size: Int) {
        Self.apply(.truncate(size), to: &current)
        pending.append(.truncate(size))
    }

    /// Makes the current content durable.
    mutating func sync() {
        durable = current
        pending.removeAll()
    }

    /// What a power cut leaves: the durable content plus the first `kept` pending changes, the last of them (when
    /// it is a write) cut to its first `tornBytes` bytes if given. Returns how many pending changes were lost.
    @discardableResult
    mutating func crash(keeping kept: Int = 0, tornBytes: Int? = nil) -> Int {
        var survivor = durable
        let kept = min(max(0, kept), pending.count)
        for (index, change) in pending.prefix(kept).enumerated() {
            if index == kept - 1, let tornBytes, case .write(let data, let offset) = change {
                Self.apply(.write(data.prefix(max(0, tornBytes)), offset: offset), to: &survivor)
            } else {
                Self.apply(change, to: &survivor)
            }
        }
        let lost = pending.count - kept
        durable = survivor
        current = survivor
        pending.removeAll()
        return lost
    }

    private static func apply(_ change: Change, to content: inout Data) {
        switch change {
        case .write(let data, let offset):
            if offset > content.count { content.append(Data(count: offset - content.count)) }
            let end = offset + data.count
            if end > content.count { content.append(Data(count: end - content.count)) }
            content.replaceSubrange(offset..<end, with: data)
        case .truncate(let size):
            if size < content.count {
                content.removeSubrange(size..<content.count)
            } else if size > content.count {
                content.append(Data(count: size - content.count))
            }
        }
    }
}
