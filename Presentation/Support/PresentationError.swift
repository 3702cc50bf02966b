import CourierDomain

/// Why a view model refused an input. A refused input changed nothing.
public enum PresentationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A toast answer (Yes, Review First, dismiss) arrived while no toast shows.
    case noToastShowing
    /// The action needs a message in another status (Retry and the chat's Delete need `failed`; Edit, Delete and
    /// Send Now in the queue need `queued` or `failed`).
    case wrongStatus(MessageID, MessageStatus)
    /// An alert button was pressed while no alert or action sheet shows.
    case noAlertShowing
    /// The open alert has no button with this label; `available` lists the ones it has.
    case unknownAction(String, available: [String])
    /// The conversation is not in the list the input acts on.
    case unknownConversation(ConversationID)
    /// The screen was made without a way to delete conversations.
    case deletionUnavailable

    public var description: String {
        switch self {
        case .noToastShowing: "no connectivity toast is showing"
        case .wrongStatus(let id, let status): "message \(id) is \(status.rawValue); this action does not apply"
        case .noAlertShowing: "no alert or action sheet is showing"
        case .unknownAction(let label, let available):
            "the alert has no '\(label)' (it offers \(available.joined(separator: ", ")))"
        case .unknownConversation(let id): "no such conversation in the list: \(id)"
        case .deletionUnavailable: "this list cannot delete conversations"
        }
    }
}
