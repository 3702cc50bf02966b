import CourierDomain
import CourierOneShot

/// In the simulated world, the backend's own records play the payload a notification or a link would carry.
extension World: ConversationDirectory {
    /// The backend's conversation with this id.
    public func conversation(_ id: ConversationID) -> Conversation? {
        // A homeserver's rooms are no demo data: what the Matrix client has heard of them plays the payload.
        if let matrix = network.remote as? any MatrixConnectionClient { return matrix.knownConversation(id) }
        return backend.conversation(id)
    }

    /// The backend's display name of `user`.
    public func displayName(of user: UserID) -> String? { backend.user(user)?.displayName }
}
