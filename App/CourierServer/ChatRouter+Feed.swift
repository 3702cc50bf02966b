import CourierData
import CourierDomain
import CourierFakes
import Foundation

// MARK: - The event feed (docs/http-api.md, "Event feed")

extension ChatRouter {
    /// The most chats one snapshot may ask for.
    public static let maxSnapshotChats = 100

    /// Answers a held long poll once something waits: nil while its user's feed holds nothing after its cursor
    /// (keep holding), else `answer(_:)`'s answer.
    public func answerIfReady(_ poll: FeedPoll) -> HTTPResponse? {
        guard backend.isSignInExpired || !isLive(poll) || backend.feedEndPosition(for: poll.user) != poll.after
        else { return nil }
        return answer(poll)
    }

    /// Whether the poll's token still signs its user in.
    private func isLive(_ poll: FeedPoll) -> Bool { sessions.user(presenting: poll.token) == poll.user }

    /// Answers a held long poll with what waits now (its deadline passed, or the server stops): the events, an
    /// empty batch when there are none, 410 for a cursor that expired meanwhile, 401 for a sign-in that did.
    public func answer(_ poll: FeedPoll) -> HTTPResponse {
        guard isLive(poll) else { return failure(.unauthorized) }
        do throws(DeliveryError) {
            return try events(for: poll.user, after: poll.after, limit: poll.limit)
        } catch {
            return failure(error)
        }
    }

    /// The poll to hold for `request`, when it is a well-formed, signed-in long poll whose cursor is the feed's end
    /// (nothing waits, and the cursor has not expired); nil for everything `respond(to:)` answers at once.
    func heldPoll(for request: HTTPRequest) -> FeedPoll? {
        let route = (request.prepared ?? Self.prepare(request)).route
        guard
            case .success(.events(let after, let limit, let timeout?)) = route,
            timeout > .zero, let token = Self.bearer(of: request), let user = sessions.user(presenting: token),
            !backend.isSignInExpired, let start = try? feedStart(after, user: user),
            start == backend.feedEndPosition(for: user)
        else { return nil }
        return FeedPoll(
            user: user, token: token, after: start, limit: limit ?? Self.eventLimit, deadline: .now + timeout)
    }

    /// Where `GET /events` starts: after the position `after` names, or, without one, just before the oldest event
    /// kept.
    func feedStart(_ after: String?, user: UserID) throws(DeliveryError) -> FeedPosition {
        guard let after else {
            let end = backend.feedEndPosition(for: user).number ?? 0
            return FeedPosition(end - UInt64(backend.keptEventCount(for: user)))
        }
        guard let position = UInt64(after) else {
            throw .validation(reason: "after must be a feed position (a whole number from 0)")
        }
        return FeedPosition(position)
    }

    /// `user`'s events after `after`, at once: 200 with the batch, 410 when the cursor expired.
    func events(for user: UserID, after: FeedPosition, limit: Int) throws(DeliveryError) -> HTTPResponse {
        switch try backend.events(for: user, after: after, limit: limit, wait: .zero, as: user) {
        case .batch(let batch):
            return try ok(HTTPWire.EventsBody(batch))
        case .expired:
            let body = (try? HTTPWire.encode(HTTPWire.expiredBody)).map(Array.init) ?? []
            return HTTPResponse(status: HTTPWire.expiredStatus, body: body)
        }
    }

    /// `GET /snapshot?conversations=N&chats=a,b&messages=M`: the user's first N conversations and the newest M
    /// messages of each of the chats named that are theirs, true at one feed position.
    func snapshot(for user: UserID, conversations: Int?, chats: [ConversationID], messages: Int?)
        throws(DeliveryError) -> HTTPResponse
    {
        let conversationLimit = conversations ?? Self.pageLimit
        let messageLimit = messages ?? Self.pageLimit
        guard chats.count <= Self.maxSnapshotChats else {
            throw .validation(reason: "a snapshot holds at most \(Self.maxSnapshotChats) chats")
        }
        let snapshot = try backend.snapshot(
            for: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit, as: user)
        return try ok(HTTPWire.SnapshotBody(snapshot))
    }

    /// `POST /conversations/{id}/receipts`: moves the signed-in user's marker (204); 404 for an unknown
    /// conversation, 403 when the user is not in it, 422 for a message that is not one of its own.
    func receipt(in conversation: ConversationID, from user: UserID, body: [UInt8]) throws(DeliveryError)
        -> HTTPResponse
    {
        let receipt = try decode(HTTPWire.ReceiptBody.self, body)
        try charge(1, by: user)
        try backend.mark(
            Receipt(
                conversationID: conversation, userID: user, kind: receipt.kind,
                upTo: MessageCursor(timestamp: receipt.timestamp, id: receipt.messageID)),
            as: user)
        return HTTPResponse(status: 204)
    }

    /// `GET /conversations/{id}/reads`: every participant's read marker, `null` before their first read; 403 for a
    /// user who is not a participant.
    func reads(in id: ConversationID, as user: UserID) throws(DeliveryError) -> HTTPResponse {
        var reads: [String: MessageID?] = [:]
        for (participant, marker) in try backend.reads(in: id, as: user) {
            // updateValue, not a subscript: assigning a nil marker through the subscript would drop the key.
            reads.updateValue(marker, forKey: participant.rawValue)
        }
        return try ok(HTTPWire.ReadsBody(reads: reads))
    }
}
