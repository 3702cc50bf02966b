import Foundation

/// A fresh directory under the system's temporary directory, removed when released (the adoption tests link no
/// test support, as an outside app would not).
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-adoption-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
