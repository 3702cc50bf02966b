import CourierData
import CourierDomain
import Foundation

// MARK: - The event feed (docs/http-api.md, "Event feed")

extension ConformanceKit {
    /// The feed's order (positions strictly increasing, from the oldest kept and after a cursor, where user one's
    /// own messages come once each, in the order sent), no gap between two users, and 410 for a cursor beyond the
    /// newest position.
    func checkFeed() async {
        await check(.feedOrder) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            let oldest = try await user.events(after: nil).expect(200, "GET /events without after")
                .decode(HTTPWire.EventsBody.self)
            try requireIncreasing(oldest.events.map(\.position), after: nil, "the oldest events kept")
            let cursor = try await user.feedEnd()
            let sent = (1...3).map { freshMessage("feed order \($0)", in: conversation) }
            let results = try await user.batch(sent, in: conversation).expect(200).decode(HTTPWire.BatchResponse.self)
            try ConformanceFailure.require(
                results.results.map(\.status) == [201, 201, 201], "the batch was not stored")
            let events = try await user.allEvents(after: cursor)
            try requireIncreasing(events.map(\.position), after: cursor, "the events after \(cursor)")
            let ids = Set(sent.map(\.id))
            let heard = events.compactMap(\.message?.id).filter { ids.contains($0) }
            try ConformanceFailure.require(
                heard == sent.map(\.id),
                "after \(cursor) the feed holds \(heard.count) of the 3 messages sent, in order")
        }
        await checkNoGap()
        await check(.feedExpired) { () async throws(ConformanceFailure) in
            let user = try signedIn()
            let end = try await user.feedEnd()
            let beyond = FeedPosition((end.number ?? 0) + 1_000_000)
            try await user.events(after: beyond)
                .expect(410, error: "expired", "GET /events?after=\(beyond) (newest is \(end))")
        }
    }

    /// User two's cursor, then a message of user one's in their shared conversation: user two's feed holds it after
    /// the cursor, once.
    private func checkNoGap() async {
        guard let user2, let shared else {
            let second = options.user2?.id.rawValue
            let reason = second.map { "\(options.user.id) and \($0) share no conversation (or \($0) did not sign in)" }
            skip(.feedNoGap, reason ?? "needs --user2 and --password2")
            return
        }
        await check(.feedNoGap) { () async throws(ConformanceFailure) in
            let user = try signedIn()
            let cursor = try await user2.feedEnd()
            let message = freshMessage("feed no gap", in: shared)
            try await user.put(message).expect(201, "PUT into \(shared) as \(user.id)")
            let events = try await user2.allEvents(after: cursor)
            try requireIncreasing(events.map(\.position), after: cursor, "\(user2.id)'s events after \(cursor)")
            let copies = events.filter { $0.message?.id == message.id }
            try ConformanceFailure.require(
                copies.count == 1,
                "\(user2.id)'s feed after \(cursor) holds \(user.id)'s message \(copies.count) times, not once")
        }
    }

    /// Fails unless `positions` strictly increase, each after `cursor` when there is one.
    private func requireIncreasing(_ positions: [FeedPosition], after cursor: FeedPosition?, _ what: String)
        throws(ConformanceFailure)
    {
        var previous = cursor
        for position in positions {
            if let previous {
                try ConformanceFailure.require(
                    previous.precedes(position) == true, "\(what): position \(position) comes after \(previous)")
            }
            previous = position
        }
    }
}
