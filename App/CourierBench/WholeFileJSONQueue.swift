import CourierDomain
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The naive design, rebuilt only as a baseline to measure against: the whole queue is one JSON array in one
/// file, and every enqueue reads it, decodes it, appends, re-encodes, writes a temporary file, syncs it and renames
/// it over the old one.
struct WholeFileJSONQueue {
    let url: URL

    func enqueue(_ message: Message) throws {
        var queue = try JSONDecoder().decode([Message].self, from: Data(contentsOf: url))
        queue.append(message)
        let temporary = url.appendingPathExtension("tmp")
        let data = try JSONEncoder().encode(queue)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
