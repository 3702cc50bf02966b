import Foundation
import Testing

/// A fresh, empty directory for a test, in the test process's folder under the system's temporary directory
/// (`TemporaryRoot`).
///
/// In a suite under `.removesTemporaryDirectories` it is removed when the test ends, whatever happens, and not
/// before. Elsewhere it is removed when released (or by `remove()`): hold it where the test keeps it for its whole run
/// (a suite's stored property, or a local used to the end), since a released one takes its files with it.
public final class TemporaryDirectory: Sendable {
    /// Where it is.
    public let url: URL
    private let ownedByTest: Bool

    /// Creates the directory, its name starting with `prefix` (the caller's place names the test issue of a suite
    /// without `.removesTemporaryDirectories`).
    public init(
        prefix: String = "courier-tests", fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        column: Int = #column
    ) throws {
        url = Self.unusedURL(prefix: prefix, fileID: fileID, filePath: filePath, line: line, column: column)
        ownedByTest = TemporaryDirectoryLedger.current != nil
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { if !ownedByTest { remove() } }

    /// A path in the test process's temporary folder that nothing uses, not created: for code that must create its
    /// directory itself. Under `.removesTemporaryDirectories` it is removed when the test ends; a test without it
    /// fails, at the caller's place.
    public static func unusedURL(
        prefix: String = "courier-tests", fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        column: Int = #column
    ) -> URL {
        let url = TemporaryRoot.url.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        if let ledger = TemporaryDirectoryLedger.current {
            ledger.add(url)
        } else if Test.current != nil {
            Issue.record(
                "a test made a temporary directory outside .removesTemporaryDirectories: add it to its suite",
                sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
        return url
    }

    /// Runs `close` when the test ends, before its temporary directories are removed: how a fixture that holds files
    /// open in one (a driver) closes by itself. Outside `.removesTemporaryDirectories` it does nothing: the caller
    /// closes.
    public static func closeWhenTestEnds(_ close: @escaping @Sendable () async -> Void) {
        TemporaryDirectoryLedger.current?.addCloser(close)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the directory and everything in it (at once, rather than when the test ends or it is released).
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
