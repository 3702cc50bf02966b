#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why the write queue refused a write. A refused write changed nothing.
///
/// A struct, as `DeliveryError` is, so that a later kind breaks no app's `switch`: match one error by value
/// (`catch WriteQueueError.emptyKind`) or a kind whatever it carries by `code`, with a `default`.
public struct WriteQueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds, with what each carries: the package's own, so that its `switch`es stay exhaustive.
    package enum Kind: Hashable, Sendable {
        case emptyKind
        case emptyKey
        case unencodablePayload(String)
    }

    /// The kind of a write-queue error, without what it carries. New codes may be added: a `switch` over one has a
    /// `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The kind is empty or only white space.
        public static let emptyKind = Code(name: "emptyKind")
        /// The coalescing key is empty.
        public static let emptyKey = Code(name: "emptyKey")
        /// The payload could not be encoded as JSON.
        public static let unencodablePayload = Code(name: "unencodablePayload")

        /// The code's name (`emptyKind`, …).
        public var description: String { name }
    }

    /// What kind of error this is, with what it carries.
    package let kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// The kind is empty or only white space.
    public static let emptyKind = WriteQueueError(.emptyKind)
    /// The coalescing key is empty (pass nil for "never coalesce").
    public static let emptyKey = WriteQueueError(.emptyKey)
    /// The payload could not be encoded as JSON.
    public static func unencodablePayload(_ reason: String) -> WriteQueueError {
        WriteQueueError(.unencodablePayload(reason))
    }

    /// What kind of error this is, whatever it carries.
    public var code: Code {
        switch kind {
        case .emptyKind: .emptyKind
        case .emptyKey: .emptyKey
        case .unencodablePayload: .unencodablePayload
        }
    }

    /// Why the payload could not be encoded (`unencodablePayload`); nil for the other codes.
    public var reason: String? {
        if case .unencodablePayload(let reason) = kind { return reason }
        return nil
    }

    /// Whether `value` is this error: `catch WriteQueueError.emptyKind`.
    public static func ~= (pattern: WriteQueueError, value: any Error) -> Bool {
        (value as? WriteQueueError) == pattern
    }

    public var description: String {
        switch kind {
        case .emptyKind: "a write needs a kind"
        case .emptyKey: "a coalescing key cannot be empty (use none)"
        case .unencodablePayload(let reason): "the write's payload cannot be encoded: \(reason)"
        }
    }
}
