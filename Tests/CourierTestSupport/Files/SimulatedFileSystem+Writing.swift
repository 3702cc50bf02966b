import CourierFakes
import Foundation

extension SimulatedFileSystem {
    /// Creates (or opens) the file at `path`, writes `text` at its start and syncs it, then closes it: its content
    /// is durable, its name only once the directory is synced.
    public func writeSynced(_ path: String, _ text: String) throws {
        let handle = try open(path, create: true)
        defer { close(handle) }
        try write(Data(text.utf8), at: 0, to: handle)
        try sync(handle)
    }
}
