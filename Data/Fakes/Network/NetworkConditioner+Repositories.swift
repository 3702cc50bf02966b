import CourierData
import CourierDomain
import Foundation

// MARK: - MessageRepository

extension NetworkConditioner: MessageRepository {
    /// Sends one message over the simulated network (one round trip).
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await request {
            try await $0.send(message)
        } inProcess: { backend throws(DeliveryError) in
            try backend.send(message, as: user)
        }
    }

    /// Sends an ordered batch in ONE round trip; the backend applies the messages in order and answers one result
    /// each. A lost request or response, going offline or an expired sign-in fails the whole batch. An empty batch
    /// costs nothing.
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        guard !messages.isEmpty else { return [] }
        return try await request {
            try await $0.sendBatch(messages)
        } inProcess: { backend throws(DeliveryError) in
            try backend.sendBatch(messages, as: user)
        }
    }

    /// Loads a page of messages over the simulated network (one round trip).
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        try await request {
            try await $0.messages(in: conversation, before: cursor, limit: limit)
        } inProcess: {
            backend throws(DeliveryError) in
            try backend.messages(in: conversation, before: cursor, limit: limit, as: self.user)
        }
    }
}

// MARK: - ConversationRepository

extension NetworkConditioner: ConversationRepository {
    /// Loads a page of the conversation list over the simulated network (one round trip).
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        try await request {
            try await $0.conversations(of: user, after: cursor, limit: limit)
        } inProcess: {
            [requester = self.user] backend throws(DeliveryError) in
            try backend.conversations(of: user, after: cursor, limit: limit, as: requester)
        }
    }
}

// MARK: - UserRepository

extension NetworkConditioner: UserRepository {
    /// Loads profiles over the simulated network (one round trip).
    public func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        try await request {
            try await $0.users(ids)
        } inProcess: { backend throws(DeliveryError) in
            try backend.users(ids, as: user)
        }
    }

    /// Loads presence over the simulated network: one round trip, not counted in `roundTrips` and drawn from a
    /// generator of its own (a chat asks every 30 s; that shifts nothing else of a seeded run).
    public func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        try await DeliveryError.converting {
            if let remote = await remote {
                return try await trip(counted: false, random: presenceRandom, held: .zero) {
                    do { return .success(try await onSocket { try await remote.presence(ids) }) } catch {
                        return .failure(error)
                    }
                }
            }
            return try await trip(counted: false, random: presenceRandom, held: .zero) { @MainActor [user] in
                Result { () throws(DeliveryError) in try backend.presence(ids, as: user) }.mapError { $0 as any Error }
            }
        }
    }
}

// MARK: - Profile writes and the one way there

extension NetworkConditioner {
    /// Changes a user's display name over the simulated network (one round trip); errors as
    /// `InMemoryChatBackend.updateDisplayName(of:to:)`, plus the network's own.
    public func updateDisplayName(of user: UserID, to name: String) async throws {
        try await request {
            try await $0.updateDisplayName(of: user, to: name)
        } inProcess: {
            [requester = self.user] backend throws(DeliveryError) in
            try backend.updateDisplayName(of: user, to: name, as: requester)
        }
    }

    /// Hides `conversation` from the signed-in user's list over the simulated network (one round trip); errors as
    /// `InMemoryChatBackend.hideConversation(_:for:as:)`, plus the network's own.
    public func hideConversation(_ conversation: ConversationID) async throws {
        try await request {
            try await $0.hideConversation(conversation)
        } inProcess: {
            [requester = self.user] backend throws(DeliveryError) in
            try backend.hideConversation(conversation, for: requester, as: requester)
        }
    }

    /// One request over the simulated network, served by the real server at `remote` when there is one (`viaServer`)
    /// and by the in-process backend otherwise (`inProcess`); a cancelled caller gets `.cancelled`.
    func request<Value: Sendable>(
        _ viaServer: @escaping @Sendable (any ChatBackend) async throws -> Value,
        inProcess: @MainActor (InMemoryChatBackend) throws(DeliveryError) -> Value
    ) async throws(DeliveryError) -> Value {
        try await DeliveryError.converting {
            if let remote { return try await remoteTrip { try await viaServer(remote) } }
            return try await roundTrip(inProcess)
        }
    }
}
