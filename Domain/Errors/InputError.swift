/// Why user input was refused. Refused input changed nothing.
public enum InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty or only white space.
    case emptyText
    /// The text is longer than allowed.
    case textTooLong(characters: Int, limit: Int)
    /// No message with this id is there to act on: none at all, or, for the outbox's Send Now, Retry, Edit and
    /// Delete, none pending in a status that allows it. The one "unknown message" of every layer: stores, the
    /// outbox and the screens throw it alike.
    case unknownMessage(MessageID)
    /// An image cannot be attached as given: a blank or oversized URL, or an outbox that sends text alone.
    case invalidImage(String)

    public var description: String {
        switch self {
        case .emptyText: "a message cannot be empty"
        case .textTooLong(let characters, let limit):
            "the message is too long (\(characters) characters; the limit is \(limit))"
        case .unknownMessage(let ref): "no such message: \(ref)"
        case .invalidImage(let reason): "the image cannot be sent: \(reason)"
        }
    }
}
