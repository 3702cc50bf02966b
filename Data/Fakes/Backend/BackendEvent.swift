import CourierData
import CourierDomain
import Foundation

/// One accepted write of the simulated backend, as its journal records it.
///
/// The backend's state is its seed data plus these events replayed in order, so every case must be replayable
/// without consulting anything but the state built so far. New cases may be added; existing ones never change
/// meaning, so that an older journal still replays.
public enum BackendEvent: Hashable, Codable, Sendable {
    /// A message was stored (sent by the signed-in user or received from another user), exactly as the backend
    /// keeps it (status `sent`).
    case messageStored(Message)
    /// A user's display name changed.
    case displayNameChanged(user: UserID, name: String)
    /// A participant's delivered or read marker moved forward.
    case receiptMarked(Receipt)
    /// Every user's feed forgot the events it kept (positions go on).
    case feedsTrimmed
    /// `user` hid `conversation` from their own list (the other participants keep it), until a new message arrives.
    case conversationHidden(conversation: ConversationID, user: UserID)
    /// A message was deleted by its sender, for everyone: its id is never stored again.
    case messageDeleted(MessageDeletion)
}
