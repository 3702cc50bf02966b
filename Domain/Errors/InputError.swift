/// Why user input was refused. Refused input changed nothing.
///
/// A struct, as `DeliveryError` is, so that a later kind breaks no app's `switch`: match one error by value
/// (`catch InputError.emptyText`, `error == .unknownMessage(id)`) or a kind whatever it carries by `code`, with a
/// `default`; what some kinds carry is a property (`messageID`, `characters` and `limit`, `reason`).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds, with what each carries: the package's own, so that its `switch`es stay exhaustive.
    package enum Kind: Hashable, Sendable {
        case emptyText
        case textTooLong(characters: Int, limit: Int)
        case unknownMessage(MessageID)
        case invalidImage(String)
        case outcomeUnknown(MessageID)
    }

    /// The kind of an input error, without what it carries. New codes may be added: a `switch` over one has a
    /// `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The text is empty or only white space.
        public static let emptyText = Code(name: "emptyText")
        /// The text is longer than allowed.
        public static let textTooLong = Code(name: "textTooLong")
        /// No message with this id is there to act on.
        public static let unknownMessage = Code(name: "unknownMessage")
        /// An image cannot be attached as given.
        public static let invalidImage = Code(name: "invalidImage")
        /// The message may already be stored by the backend, so its text cannot change.
        public static let outcomeUnknown = Code(name: "outcomeUnknown")

        /// The code's name (`emptyText`, `unknownMessage`, …).
        public var description: String { name }
    }

    /// What kind of error this is, with what it carries.
    package let kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// The text is empty or only white space.
    public static let emptyText = InputError(.emptyText)
    /// The text is longer than allowed.
    public static func textTooLong(characters: Int, limit: Int) -> InputError {
        InputError(.textTooLong(characters: characters, limit: limit))
    }
    /// No message with this id is there to act on: none at all, or, for the outbox's Send Now, Retry, Edit and
    /// Delete, none pending in a status that allows it. The one "unknown message" of every layer: stores, the
    /// outbox and the screens throw it alike.
    public static func unknownMessage(_ id: MessageID) -> InputError { InputError(.unknownMessage(id)) }
    /// An image cannot be attached as given: a blank or oversized URL, or an outbox that sends text alone.
    public static func invalidImage(_ reason: String) -> InputError { InputError(.invalidImage(reason)) }
    /// The message's last send ended with no answer (`Message.outcomeUnknown`): the backend may already hold it, so
    /// an edit is refused — a backend that keeps the first text for an id would drop it without a word. The message
    /// is resent under its id as it is; a new text goes as a new message.
    public static func outcomeUnknown(_ id: MessageID) -> InputError { InputError(.outcomeUnknown(id)) }

    /// What kind of error this is, whatever it carries.
    public var code: Code {
        switch kind {
        case .emptyText: .emptyText
        case .textTooLong: .textTooLong
        case .unknownMessage: .unknownMessage
        case .invalidImage: .invalidImage
        case .outcomeUnknown: .outcomeUnknown
        }
    }

    /// The message an `unknownMessage` or `outcomeUnknown` error names; nil for the other codes.
    public var messageID: MessageID? {
        switch kind {
        case .unknownMessage(let id), .outcomeUnknown(let id): id
        default: nil
        }
    }

    /// How long a `textTooLong` text was, in characters; nil for the other codes.
    public var characters: Int? {
        if case .textTooLong(let characters, _) = kind { return characters }
        return nil
    }

    /// The longest text allowed, for `textTooLong`; nil for the other codes.
    public var limit: Int? {
        if case .textTooLong(_, let limit) = kind { return limit }
        return nil
    }

    /// Why an image cannot be attached (`invalidImage`); nil for the other codes.
    public var reason: String? {
        if case .invalidImage(let reason) = kind { return reason }
        return nil
    }

    /// Whether `value` is this error: `catch InputError.emptyText`.
    public static func ~= (pattern: InputError, value: any Error) -> Bool { (value as? InputError) == pattern }

    public var description: String {
        switch kind {
        case .emptyText: "a message cannot be empty"
        case .textTooLong(let characters, let limit):
            "the message is too long (\(characters) characters; the limit is \(limit))"
        case .unknownMessage(let ref): "no such message: \(ref)"
        case .invalidImage(let reason): "the image cannot be sent: \(reason)"
        case .outcomeUnknown:
            "this message may already have reached the server, so it can't be edited; send the new text as a new "
                + "message"
        }
    }
}
