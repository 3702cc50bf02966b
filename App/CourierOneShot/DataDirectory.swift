import CourierDomain
import CourierStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What makes a directory Courier's: the marker file written when Courier creates a data directory, so that
/// `--fresh` wipes only what Courier made (docs/storage-format.md, "The data directory").
///
/// A directory is Courier's when it holds the marker, or — made by a build from before the marker — when it holds
/// `world.json` and nothing but the entries Courier writes (`world.json`, `world.json.tmp`, `client`, `server`,
/// `.lock`). Such a directory gets the marker when it is next opened. A directory that holds anything else gets no
/// marker, ever: Courier may use it, but will never wipe it.
public enum DataDirectory {
    /// The marker's file name.
    public static let markerName = ".courier-data-directory"
    /// What the marker holds (for a person who finds it).
    static let markerText = "This directory was created by Courier; `courier --fresh` may wipe it.\n"
    /// Entries a data directory from before the marker holds.
    static let legacyEntries: Set<String> = ["world.json", "world.json.tmp", "client", "server", ".lock"]

    /// What `directory` is.
    public enum Kind: Equatable, Sendable {
        /// Nothing there.
        case missing
        /// An empty directory.
        case empty
        /// A directory Courier made (marked, or in the layout of an earlier build).
        case courier
        /// Anything else: a file, or a directory with entries Courier did not make (named, sorted, at most 5).
        case foreign(String)
    }

    /// Looks at `directory` on `fileSystem` without changing it.
    public static func kind(of directory: URL, fileSystem: any FileSystem = PosixFileSystem()) -> Kind {
        let path = directory.path
        guard fileSystem.exists(path) else { return .missing }
        guard let names = try? fileSystem.list(path) else { return .foreign("it is not a directory one can list") }
        if names.isEmpty { return .empty }
        if names.contains(markerName) { return .courier }
        let strangers = names.filter { !legacyEntries.contains($0) }.sorted()
        if strangers.isEmpty, names.contains("world.json") { return .courier }
        let shown = strangers.isEmpty ? ["no world.json"] : Array(strangers.prefix(5))
        return .foreign("it holds " + shown.joined(separator: ", ") + (strangers.count > 5 ? ", …" : ""))
    }

    /// Checks that `--fresh` may wipe `directory`: it is missing, empty or Courier's. Otherwise throws
    /// `DataDirectoryError.notCourier`, and nothing was touched. Returns what it found, for `wipe`.
    package static func checkWipeable(_ directory: URL) throws -> Kind {
        let kind = kind(of: directory)
        if case .foreign(let why) = kind { throw DataDirectoryError.notCourier(path: directory.path, reason: why) }
        return kind
    }

    /// Empties a directory `checkWipeable` accepted, keeping the marker and `.lock`. Call with the directory's lock
    /// held: the lock on the directory itself is what keeps another process out meanwhile.
    package static func wipe(_ directory: URL, kind: Kind) throws {
        guard kind == .courier else { return }
        let manager = FileManager.default
        let names = try manager.contentsOfDirectory(atPath: directory.path)
        for name in names where name != markerName && name != ".lock" {
            try manager.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Writes the marker into a directory that is new, empty or Courier's (found by `kind` before anything was
    /// created in it); never into anything else.
    package static func mark(_ directory: URL, kindBeforeOpening kind: Kind, fileSystem: any FileSystem) throws {
        guard kind != .courier || !fileSystem.exists(directory.appendingPathComponent(markerName).path) else { return }
        if case .foreign = kind { return }
        let path = directory.appendingPathComponent(markerName).path
        let handle = try fileSystem.open(path, create: true)
        defer { fileSystem.close(handle) }
        try fileSystem.truncate(handle, to: 0)
        try fileSystem.write(Data(markerText.utf8), at: 0, to: handle)
        try fileSystem.sync(handle)
        try fileSystem.syncDirectory(directory.path)
    }
}
