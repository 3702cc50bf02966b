import CourierDomain
import CourierOneShot
import CourierPresentation

/// What the device shows when the simulation checks convergence, read off its screens as a user reads them — the
/// open chat's rows and the conversation list's rows — and what it still owes the backend.
struct ShownScreens: Sendable {
    /// A chat on screen: its conversation and its rows, oldest first.
    struct OpenChat: Sendable {
        var conversation: ConversationID
        var rows: [MessageRow]
    }

    /// The open chat, if any.
    var chat: OpenChat?
    /// The conversation list's loaded rows, top first (empty when the list was never loaded).
    var list: [ConversationsListItem]
    /// Conversations whose read marker this device made but the backend does not have yet (a queued receipt).
    var queuedReads: Set<ConversationID>
    /// The messages the outbox still holds (after settling: failed ones only).
    var pending: [Message]
}
