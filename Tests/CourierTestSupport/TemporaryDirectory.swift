import Foundation

/// A fresh, empty directory under the system's temporary directory, removed when released (or by `remove()`).
///
/// Hold it where the test keeps it for its whole run (a suite's stored property, or a local used to the end): a
/// released one takes its files with it.
public final class TemporaryDirectory: Sendable {
    /// Where it is.
    public let url: URL

    /// Creates the directory, its name starting with `prefix`.
    public init(prefix: String = "courier-tests") throws {
        url = Self.unusedURL(prefix: prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// A path under the system's temporary directory that nothing uses, not created: for code that must create its
    /// directory itself (the test removes it).
    public static func unusedURL(prefix: String = "courier-tests") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the directory and everything in it (at once, rather than when released).
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
