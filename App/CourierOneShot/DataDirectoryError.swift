/// Why the driver refuses a data directory before opening it (exit status 2: the invocation is wrong).
public enum DataDirectoryError: Error, Equatable, CustomStringConvertible {
    /// `--fresh` on a directory Courier did not make: nothing in it was touched.
    case notCourier(path: String, reason: String)

    public var description: String {
        switch self {
        case .notCourier(let path, let reason):
            "--fresh refused: \(path) is not a Courier data directory (\(reason)); nothing was touched"
        }
    }
}
