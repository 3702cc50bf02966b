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
        guard request.method == "GET", Self.segments(of: request.path) == ["events"],
            let token = Self.bearer(of: request), let user = sessions.user(presenting: token), !backend.isSignInExpired,
            let query = try? eventsQuery(request, user: user), query.wait > .zero,
            query.after == backend.feedEndPosition(for: user)
        else { return nil }
        return FeedPoll(user: user, token: token, after: query.after, limit: query.limit, deadline: .now + query.wait)
    }

    /// `GET /events`'s query: `after` (a position; without it, just before the oldest event kept), `limit`
    /// (1…1000, default 100) and `timeout` (seconds, 0…60, default 0).
    func eventsQuery(_ request: HTTPRequest, user: UserID) throws(DeliveryError)
        -> (after: FeedPosition, limit: Int, wait: Duration)
    {
        let limit = try Self.limit(request, defaultValue: 100)
        var wait = Duration.zero
        if let text = request.queryValue("timeout") {
            let most = HTTPWire.maxEventWait.timeInterval
            guard let seconds = Double(text), seconds.isFinite, (0...most).contains(seconds) else {
                throw .validation(reason: "timeout must be a number of seconds from 0 to \(Int(most))")
            }
            wait = .milliseconds(Int64((seconds * 1_000).rounded()))
        }
        guard let text = request.queryValue("after") else {
            let end = backend.feedEndPosition(for: user).number ?? 0
            return (FeedPosition(end - UInt64(backend.keptEventCount(for: user))), limit, wait)
        }
        guard let after = UInt64(text) else {
            throw .validation(reason: "after must be a feed position (a whole number from 0)")
        }
        return (FeedPosition(after), limit, wait)
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
    func snapshot(for user: UserID, request: HTTPRequest) throws(DeliveryError) -> HTTPResponse {
        let conversationLimit = try Self.limit(request, named: "conversations")
        let messageLimit = try Self.limit(request, named: "messages")
        let chats = (request.queryValue("chats") ?? "").split(separator: ",").map { ConversationID(String($0)) }
        guard chats.count <= Self.maxSnapshotChats else {
            throw .validation(reason: "a snapshot holds at most \(Self.maxSnapshotChats) chats")
        }
        let snapshot = try backend.snapshot(
            for: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit, as: user)
        return try ok(HTTPWire.SnapshotBody(snapshot))
    }

    /// `POST /conversations/{id}/receipts`: moves the signed-in user's marker (204); 404 for an unknown
    /// conversation, 403 when the user is not in it, 422 for a message that is not one of its own.
    func receipt(in conversation: String, from user: UserID, body: [UInt8]) throws(DeliveryError) -> HTTPResponse {
        let receipt = try decode(HTTPWire.ReceiptBody.self, body)
        try charge(1, by: user)
        try backend.mark(
            Receipt(
                conversationID: ConversationID(conversation), userID: user, kind: receipt.kind,
                upTo: MessageCursor(timestamp: receipt.timestamp, id: receipt.messageID)),
            as: user)
        return HTTPResponse(status: 204)
    }

    /// `GET /conversations/{id}/reads`: every participant's read marker, `null` before their first read; 403 for a
    /// user who is not a participant.
    func reads(in id: String, as user: UserID) throws(DeliveryError) -> HTTPResponse {
        var reads: [String: MessageID?] = [:]
        for (participant, marker) in try backend.reads(in: ConversationID(id), as: user) {
            // updateValue, not a subscript: assigning a nil marker through the subscript would drop the key.
            reads.updateValue(marker, forKey: participant.rawValue)
        }
        return try ok(HTTPWire.ReadsBody(reads: reads))
    }
}
