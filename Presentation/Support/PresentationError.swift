import CourierDomain

/// Why a view model refused an input. A refused input changed nothing. An unknown message is the Domain's
/// `InputError.unknownMessage`, whichever layer finds it.
///
/// A struct, as `DeliveryError` is, so that a later kind breaks no app's `switch`: match one error by value
/// (`catch PresentationError.noToastShowing`) or a kind whatever it carries by `code`, with a `default`.
public struct PresentationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds, with what each carries: the package's own, so that its `switch`es stay exhaustive.
    package enum Kind: Hashable, Sendable {
        case noToastShowing
        case wrongStatus(MessageID, MessageStatus)
        case noAlertShowing
        case unknownAction(String, available: [String])
        case unknownConversation(ConversationID)
        case deletionUnavailable
    }

    /// The kind of a presentation error, without what it carries. New codes may be added: a `switch` over one has
    /// a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A toast answer arrived while no toast shows.
        public static let noToastShowing = Code(name: "noToastShowing")
        /// The action needs a message in another status.
        public static let wrongStatus = Code(name: "wrongStatus")
        /// An alert button was pressed while no alert shows.
        public static let noAlertShowing = Code(name: "noAlertShowing")
        /// The open alert has no such button.
        public static let unknownAction = Code(name: "unknownAction")
        /// The conversation is not in the list.
        public static let unknownConversation = Code(name: "unknownConversation")
        /// The screen cannot delete conversations.
        public static let deletionUnavailable = Code(name: "deletionUnavailable")

        /// The code's name (`wrongStatus`, …).
        public var description: String { name }
    }

    /// What kind of error this is, with what it carries.
    package let kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// A toast answer (Yes, Review First, dismiss) arrived while no toast shows.
    public static let noToastShowing = PresentationError(.noToastShowing)
    /// The action needs a message in another status (Retry and the chat's Delete need `failed`; Edit, Delete and
    /// Send Now in the queue need `queued` or `failed`).
    public static func wrongStatus(_ id: MessageID, _ status: MessageStatus) -> PresentationError {
        PresentationError(.wrongStatus(id, status))
    }
    /// An alert button was pressed while no alert or action sheet shows.
    public static let noAlertShowing = PresentationError(.noAlertShowing)
    /// The open alert has no button with this label; `available` lists the ones it has.
    public static func unknownAction(_ label: String, available: [String]) -> PresentationError {
        PresentationError(.unknownAction(label, available: available))
    }
    /// The conversation is not in the list the input acts on.
    public static func unknownConversation(_ id: ConversationID) -> PresentationError {
        PresentationError(.unknownConversation(id))
    }
    /// The screen was made without a way to delete conversations.
    public static let deletionUnavailable = PresentationError(.deletionUnavailable)

    /// What kind of error this is, whatever it carries.
    public var code: Code {
        switch kind {
        case .noToastShowing: .noToastShowing
        case .wrongStatus: .wrongStatus
        case .noAlertShowing: .noAlertShowing
        case .unknownAction: .unknownAction
        case .unknownConversation: .unknownConversation
        case .deletionUnavailable: .deletionUnavailable
        }
    }

    /// The message and its status, for `wrongStatus`; nil for the other codes.
    public var refusedMessage: (id: MessageID, status: MessageStatus)? {
        if case .wrongStatus(let id, let status) = kind { return (id, status) }
        return nil
    }

    /// The label pressed and the labels the alert has, for `unknownAction`; nil for the other codes.
    public var refusedAction: (label: String, available: [String])? {
        if case .unknownAction(let label, let available) = kind { return (label, available) }
        return nil
    }

    /// The conversation an `unknownConversation` error names; nil for the other codes.
    public var conversationID: ConversationID? {
        if case .unknownConversation(let id) = kind { return id }
        return nil
    }

    /// Whether `value` is this error: `catch PresentationError.noToastShowing`.
    public static func ~= (pattern: PresentationError, value: any Error) -> Bool {
        (value as? PresentationError) == pattern
    }

    public var description: String {
        switch kind {
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
