import CourierData
import CourierDomain
import CourierStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - EventFeed

/// The event feed over HTTP (docs/http-api.md, "Event feed"). The feed is the signed-in user's: the `user` the
/// protocol passes is not sent (the server reads the user from `Authorization`). A long poll is a plain data task
/// that the server holds; its timeout is the hold plus the usual one, so a held poll is never taken for a lost one.
extension HTTPChatClient: EventFeed {
    /// `GET /events/end`: the position of the signed-in user's newest event.
    public func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition {
        try await request(.feedEnd, as: HTTPWire.FeedEndBody.self).position
    }

    /// `GET /events?after=N&limit=L&timeout=S`: the signed-in user's events after `cursor`, held by the server up to
    /// `wait` (at most `HTTPWire.maxEventWait`) when none wait yet. A 410 answer is `.expired`.
    public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    {
        let held = min(max(.zero, wait), HTTPWire.maxEventWait)
        let route = HTTPRoute.events(after: cursor.description, limit: limit, timeout: held > .zero ? held : nil)
        let reply = try await answer(route)
        if reply.status == HTTPWire.expiredStatus { return .expired }
        guard (200...299).contains(reply.status) else { throw reply.error }
        guard let batch = (try? HTTPWire.decode(HTTPWire.EventsBody.self, from: reply.data))?.batch else {
            throw DeliveryError.unknown("the server's answer could not be read")
        }
        return .batch(batch)
    }

    /// `GET /snapshot?conversations=N&chats=a,b&messages=M`: the signed-in user's start-over snapshot.
    public func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        async throws(DeliveryError) -> FeedSnapshot
    {
        let route = HTTPRoute.snapshot(conversations: conversationLimit, chats: chats, messages: messageLimit)
        return try await request(route, as: HTTPWire.SnapshotBody.self).snapshot
    }

    /// `POST /conversations/{id}/receipts`: moves the signed-in user's marker. A receipt naming another user is
    /// refused here with `.validation` (the server only moves the signed-in user's), before anything is sent.
    public func mark(_ receipt: Receipt) async throws(DeliveryError) {
        guard receipt.userID == user else {
            throw DeliveryError.validation(reason: "a receipt over HTTP is the signed-in user's")
        }
        let body = HTTPWire.ReceiptBody(
            kind: receipt.kind, messageID: receipt.upTo.id, timestamp: receipt.upTo.timestamp)
        _ = try await exchange(.receipts(receipt.conversationID), body: encoded(body))
    }
}

// MARK: - Admin

extension HTTPChatClient {
    /// `GET /conversations/{id}/reads`: each participant's read marker (nil before their first read); `.notFound`
    /// for an unknown conversation.
    public func reads(in conversation: ConversationID) async throws(DeliveryError) -> [UserID: MessageID?] {
        let body = try await request(.reads(conversation), as: HTTPWire.ReadsBody.self)
        var reads: [UserID: MessageID?] = [:]
        for (user, marker) in body.reads { reads.updateValue(marker, forKey: UserID(user)) }
        return reads
    }

    /// `POST /events/trim`: the server forgets every event every feed keeps (a device whose cursor is behind must
    /// start over).
    public func trimEvents() async throws {
        _ = try await exchange(.trimEvents)
    }
}
