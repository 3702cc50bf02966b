import CourierDomain
import Foundation

/// One endpoint of the REST contract (docs/http-api.md) with its typed parameters: the one description of the routes
/// that the client (`HTTPChatClient`), the conformance kit and `courier-server`'s router share.
///
/// A route builds its request against a base URL, keeping the base's path (`HTTPRoute+Request`), and is parsed back
/// from a method, a path and a query (`HTTPRoute+Parsing`), so both ends spell every path, id and query alike. Ids are
/// path segments, percent-encoded and decoded in one place. Cursors and feed positions are the backend's tokens,
/// carried as the text they came as; page sizes and a poll's hold are typed, and parsing checks the contract's
/// bounds on them. Nil stands for a query parameter left out (the backend's default).
public enum HTTPRoute: Hashable, Sendable {
    // MARK: - Sessions

    /// `POST /sessions`: signs in; the one route sent without `Authorization`.
    case signIn
    /// `DELETE /sessions/current`: revokes the token of the request.
    case signOut
    /// `POST /sessions/current/expire`: the token of the request expires now (a development route).
    case expireSession

    // MARK: - Messages, conversations and users

    /// `PUT /conversations/{id}/messages/{messageId}`: stores a message, idempotently by its id.
    case putMessage(ConversationID, MessageID)
    /// `POST /conversations/{id}/messages:batch`: stores a conversation's messages in order, one result each.
    case sendBatch(ConversationID)
    /// `GET /conversations/{id}/messages?limit=N&before=CURSOR`: a page of messages before the cursor.
    case messages(ConversationID, before: String?, limit: Int?)
    /// `DELETE /conversations/{id}/messages/{messageId}`: deletes a message for everyone.
    case deleteMessage(ConversationID, MessageID)
    /// `GET /conversations/{id}`: the conversation and how many messages it holds.
    case conversation(ConversationID)
    /// `POST /conversations/{id}/hide`: takes the conversation off the signed-in user's list.
    case hideConversation(ConversationID)
    /// `GET /users/{id}/conversations?limit=N&after=CURSOR`: a page of a user's conversations.
    case conversations(of: UserID, after: String?, limit: Int?)
    /// `GET /users?ids=a,b,c`: the known users among the ids.
    case users([UserID])
    /// `GET /presence?ids=a,b,c`: the presence of the known users among the ids.
    case presence([UserID])
    /// `PUT /users/{id}/display-name`: changes a user's display name.
    case displayName(UserID)
    /// `PUT /users/{id}/presence`: says whether a user's device is connected.
    case setPresence(UserID)

    // MARK: - Event feed

    /// `GET /events?after=N&limit=L&timeout=S`: the signed-in user's events after a position, held up to `timeout`.
    case events(after: String?, limit: Int?, timeout: Duration?)
    /// `GET /events/end`: the position of the signed-in user's newest event.
    case feedEnd
    /// `GET /snapshot?conversations=N&chats=a,b&messages=M`: the start-over snapshot.
    case snapshot(conversations: Int?, chats: [ConversationID], messages: Int?)
    /// `POST /conversations/{id}/receipts`: moves the signed-in user's marker.
    case receipts(ConversationID)
    /// `GET /conversations/{id}/reads`: every participant's read marker (an admin read).
    case reads(ConversationID)
    /// `POST /events/trim`: every feed forgets its events (a development route).
    case trimEvents

    /// The largest page a request may ask for (`limit`, `conversations`, `messages`): 1…1000.
    public static let maxPageSize = 1_000

    // MARK: - Method, path and query

    /// The method.
    public var method: String {
        switch self {
        case .putMessage, .displayName, .setPresence: "PUT"
        case .signOut, .deleteMessage: "DELETE"
        case .signIn, .expireSession, .sendBatch, .hideConversation, .receipts, .trimEvents: "POST"
        case .messages, .conversation, .conversations, .users, .presence, .events, .feedEnd, .snapshot, .reads:
            "GET"
        }
    }

    /// The path's segments, as text (not yet percent-encoded).
    public var segments: [String] {
        switch self {
        case .signIn: ["sessions"]
        case .signOut: ["sessions", "current"]
        case .expireSession: ["sessions", "current", "expire"]
        case .putMessage(let conversation, let id), .deleteMessage(let conversation, let id):
            ["conversations", conversation.rawValue, "messages", id.rawValue]
        case .sendBatch(let conversation): ["conversations", conversation.rawValue, "messages:batch"]
        case .messages(let conversation, _, _): ["conversations", conversation.rawValue, "messages"]
        case .conversation(let conversation): ["conversations", conversation.rawValue]
        case .hideConversation(let conversation): ["conversations", conversation.rawValue, "hide"]
        case .receipts(let conversation): ["conversations", conversation.rawValue, "receipts"]
        case .reads(let conversation): ["conversations", conversation.rawValue, "reads"]
        case .conversations(let user, _, _): ["users", user.rawValue, "conversations"]
        case .displayName(let user): ["users", user.rawValue, "display-name"]
        case .setPresence(let user): ["users", user.rawValue, "presence"]
        case .users: ["users"]
        case .presence: ["presence"]
        case .events: ["events"]
        case .feedEnd: ["events", "end"]
        case .trimEvents: ["events", "trim"]
        case .snapshot: ["snapshot"]
        }
    }

    /// The query's parameters, in the order they are sent; a parameter left out (nil) is not sent.
    public var query: [(name: String, value: String)] {
        var query: [(name: String, value: String)] = []
        func add(_ name: String, _ value: String?) {
            if let value { query.append((name, value)) }
        }
        switch self {
        case .messages(_, let before, let limit):
            add("limit", limit.map(String.init))
            add("before", before)
        case .conversations(_, let after, let limit):
            add("limit", limit.map(String.init))
            add("after", after)
        case .users(let ids), .presence(let ids):
            add("ids", ids.map(\.rawValue).joined(separator: ","))
        case .events(let after, let limit, let timeout):
            add("after", after)
            add("limit", limit.map(String.init))
            add("timeout", timeout.map(Self.seconds))
        case .snapshot(let conversations, let chats, let messages):
            add("conversations", conversations.map(String.init))
            add("messages", messages.map(String.init))
            add("chats", chats.isEmpty ? nil : chats.map(\.rawValue).joined(separator: ","))
        default: break
        }
        return query
    }

    /// How long the backend may hold the request before it answers (a long poll's `timeout`); zero for the rest.
    public var hold: Duration {
        guard case .events(_, _, let timeout?) = self else { return .zero }
        return max(.zero, timeout)
    }

    /// A duration as the query's seconds: whole seconds without a fraction, else to the millisecond.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = Int64((duration.timeInterval * 1_000).rounded())
        guard milliseconds % 1_000 != 0 else { return String(milliseconds / 1_000) }
        return String(format: "%.3f", Double(milliseconds) / 1_000)
    }
}

extension HTTPRoute: CustomStringConvertible {
    /// The method and the path, unencoded and without the query: `GET /conversations/c1/messages`.
    public var description: String { "\(method) /\(segments.joined(separator: "/"))" }
}
