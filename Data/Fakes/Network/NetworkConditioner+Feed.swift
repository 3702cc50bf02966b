import CourierData
import CourierDomain
import Foundation

// MARK: - EventFeed

/// The event feed over the simulated network. Feed requests go through the same journey as every request (offline
/// refuses at once; latency, loss and the fail rate apply) but draw their fates from a generator of their own and are
/// not counted in `roundTrips` — listening never changes what happens to the other requests of a seeded run. A long
/// poll is held at the backend on the clock: it answers as soon as the user's feed grows, or empty when `wait` runs
/// out; going offline cuts it off with `.offline`.
///
/// With a `remote` server, each call goes to it instead (as `NetworkConditioner+Remote` carries other requests):
/// the device side — offline, latency, loss, the fail rate, the feed's own generator — still applies, and a long
/// poll is held by the server over a real socket, for real time, as the signed-in user of `remote` — unless
/// `holdsRemotePolls` is off (a short poll each `SyncSettings.minimumPollInterval` instead).
extension NetworkConditioner: EventFeed {
    /// The position of `user`'s newest event (one feed round trip).
    public func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition {
        if let remote = await remote {
            return try await remoteFeedTrip(held: .zero) { try await remote.feedEnd(for: user) }
        }
        return try await feedTrip(held: .zero) { backend throws(DeliveryError) in
            try backend.feedEnd(for: user, as: self.user)
        }
    }

    /// `user`'s events after `cursor`; held up to `wait` when there are none yet (see the type).
    public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    {
        let held = max(.zero, wait)
        if let remote = await remote {
            // With `holdsRemotePolls` off the server is asked without a hold, and the engine asks again after its
            // pause on the clock (see the property).
            let held = await holdsRemotePolls ? held : .zero
            return try await remoteFeedTrip(held: held) {
                try await remote.events(for: user, after: cursor, limit: limit, wait: held)
            }
        }
        return try await DeliveryError.converting {
            try await trip(counted: false, random: feedRandom, held: held) { @MainActor in
                do {
                    let answer = try backend.events(for: user, after: cursor, limit: limit, wait: held, as: self.user)
                    guard case .batch(let batch) = answer, batch.events.isEmpty, held > .zero else {
                        return .success(answer)
                    }
                    try await hold(for: user, until: clock.now.addingTimeInterval(held.timeInterval))
                    return .success(
                        try backend.events(for: user, after: cursor, limit: limit, wait: held, as: self.user))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    /// The start-over snapshot (one feed round trip).
    public func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        async throws(DeliveryError) -> FeedSnapshot
    {
        if let remote = await remote {
            return try await remoteFeedTrip(held: .zero) {
                try await remote.snapshot(
                    for: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit)
            }
        }
        return try await feedTrip(held: .zero) { backend throws(DeliveryError) in
            try backend.snapshot(
                for: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit,
                as: self.user)
        }
    }

    /// Writes a receipt (one feed round trip, drawn from the receipts' generator).
    public func mark(_ receipt: Receipt) async throws(DeliveryError) {
        if let remote = await remote {
            return try await remoteFeedTrip(held: .zero, random: receiptRandom) { try await remote.mark(receipt) }
        }
        try await feedTrip(held: .zero, random: receiptRandom) { backend throws(DeliveryError) in
            try backend.mark(receipt, as: self.user)
        }
    }

    /// A feed request to the real server at `remote`: one feed trip on the device side (not counted, the feed's
    /// generator, `held` on top of the timeout a lost request or response waits out), the socket cut when the
    /// device goes offline.
    private func remoteFeedTrip<Value: Sendable>(
        held: Duration, random: LockedRandom? = nil, _ work: @escaping @Sendable () async throws -> Value
    ) async throws(DeliveryError) -> Value {
        try await DeliveryError.converting {
            try await trip(counted: false, random: random ?? feedRandom, held: held) {
                do { return .success(try await onSocket(work)) } catch { return .failure(error) }
            }
        }
    }

    private func feedTrip<Value>(
        held: Duration, random: LockedRandom? = nil,
        _ work: @MainActor (InMemoryChatBackend) throws(DeliveryError) -> Value
    ) async throws(DeliveryError) -> Value {
        try await DeliveryError.converting {
            try await trip(counted: false, random: random ?? feedRandom, held: held) {
                Result { () throws(DeliveryError) in try work(backend) }.mapError { $0 as any Error }
            }
        }
    }

    /// Sleeps on the clock until `deadline` or until `user`'s feed grows, whichever is first. Throws `.offline` when
    /// the device is or goes offline, `CancellationError` when the caller is cancelled.
    private func hold(for user: UserID, until deadline: Date) async throws {
        let backend = backend
        try await wait(until: deadline) { wake in
            backend.observeFeeds { grownUser in if grownUser == user { wake() } }
        }
    }
}
