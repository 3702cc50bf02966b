import Foundation

/// Why the write queue refused a write. A refused write changed nothing.
public enum WriteQueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind is empty or only white space.
    case emptyKind
    /// The coalescing key is empty (pass nil for "never coalesce").
    case emptyKey
    /// The payload could not be encoded as JSON.
    case unencodablePayload(String)

    public var description: String {
        switch self {
        case .emptyKind: "a write needs a kind"
        case .emptyKey: "a coalescing key cannot be empty (use none)"
        case .unencodablePayload(let reason): "the write's payload cannot be encoded: \(reason)"
        }
    }
}
