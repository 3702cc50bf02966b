/// Why user input was refused. Refused input changed nothing.
public enum InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty or only white space.
    case emptyText
    /// The text is longer than allowed.
    case textTooLong(characters: Int, limit: Int)
    /// No conversation is open to send into.
    case noConversation
    /// The referenced message is not there (or not in a state that allows the action).
    case unknownMessage(String)
    /// An image cannot be attached as given: a blank or oversized URL, or an outbox that sends text alone.
    case invalidImage(String)

    public var description: String {
        switch self {
        case .emptyText: "a message cannot be empty"
        case .textTooLong(let characters, let limit):
            "the message is too long (\(characters) characters; the limit is \(limit))"
        case .noConversation: "no conversation is open"
        case .unknownMessage(let ref): "no such message: \(ref)"
        case .invalidImage(let reason): "the image cannot be sent: \(reason)"
        }
    }
}
