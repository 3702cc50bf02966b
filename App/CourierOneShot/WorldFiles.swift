#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the driver's world keeps its files in a data directory (docs/storage-format.md, "The data directory"), and
/// the demo's password: what `World` opens and a one-shot send opens without it.
public enum WorldFiles {
    /// The password every demo user signs in to a `courier-server` with — for the demo only.
    public static let demoPassword = "courier"

    /// Where the driver keeps its sign-in to a `courier-server` (`client/token`, `0600`).
    public static func tokenPath(in directory: URL) -> String {
        directory.appendingPathComponent("client/token").path
    }

    /// Where the driver keeps its sign-in to a Matrix homeserver, with its device (`client/matrix-token`, `0600`).
    public static func matrixTokenPath(in directory: URL) -> String {
        directory.appendingPathComponent("client/matrix-token").path
    }

    /// Where the client's id namespace and counter live (`client/ids`), beside the client's other stores.
    public static func idSpacePath(in directory: URL) -> String {
        directory.appendingPathComponent("client/ids").path
    }
}
