import CourierData
import CourierDomain
import Foundation

// MARK: - MessageRepository

extension NetworkConditioner: MessageRepository {
    /// Sends one message over the simulated network (one round trip).
    public func send(_ message: Message) async throws -> Message {
        if let remote = await remote { return try await remoteTrip { try await remote.send(message) } }
        return try await roundTrip { backend throws(DeliveryError) in try backend.send(message) }
    }

    /// Sends an ordered batch in ONE round trip; the backend applies the messages in order and answers one result
    /// each. A lost request or response, going offline or an expired sign-in fails the whole batch. An empty batch
    /// costs nothing.
    public func sendBatch(_ messages: [Message]) async throws -> [Result<Message, DeliveryError>] {
        guard !messages.isEmpty else { return [] }
        if let remote = await remote { return try await remoteTrip { try await remote.sendBatch(messages) } }
        return try await roundTrip { backend throws(DeliveryError) in try backend.sendBatch(messages) }
    }

    /// Loads a page of messages over the simulated network (one round trip).
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    {
        if let remote = await remote {
            return try await remoteTrip { try await remote.messages(in: conversation, before: cursor, limit: limit) }
        }
        return try await roundTrip { backend throws(DeliveryError) in
            try backend.messages(in: conversation, before: cursor, limit: limit)
        }
    }
}

// MARK: - ConversationRepository

extension NetworkConditioner: ConversationRepository {
    /// Loads a page of the conversation list over the simulated network (one round trip).
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int) async throws
        -> ConversationPage
    {
        if let remote = await remote {
            return try await remoteTrip { try await remote.conversations(of: user, after: cursor, limit: limit) }
        }
        return try await roundTrip { backend throws(DeliveryError) in
            try backend.conversations(of: user, after: cursor, limit: limit)
        }
    }
}

// MARK: - UserRepository

extension NetworkConditioner: UserRepository {
    /// Loads profiles over the simulated network (one round trip).
    public func users(_ ids: [UserID]) async throws -> [User] {
        if let remote = await remote { return try await remoteTrip { try await remote.users(ids) } }
        return try await roundTrip { backend throws(DeliveryError) in try backend.users(ids) }
    }

    /// Loads presence over the simulated network (one round trip).
    public func presence(_ ids: [UserID]) async throws -> [Presence] {
        if let remote = await remote { return try await remoteTrip { try await remote.presence(ids) } }
        return try await roundTrip { backend throws(DeliveryError) in try backend.presence(ids) }
    }
}

// MARK: - Profile writes

extension NetworkConditioner {
    /// Changes a user's display name over the simulated network (one round trip); errors as
    /// `InMemoryChatBackend.updateDisplayName(of:to:)`, plus the network's own.
    public func updateDisplayName(of user: UserID, to name: String) async throws {
        if let remote { return try await remoteTrip { try await remote.updateDisplayName(of: user, to: name) } }
        try await roundTrip { backend throws(DeliveryError) in try backend.updateDisplayName(of: user, to: name) }
    }
}
