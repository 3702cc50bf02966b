import CourierData
import CourierDomain
import Foundation

extension MatrixClient: ConversationRepository {
    /// The page of up to `limit` joined rooms after `cursor`, most recent activity first (then id), leaving out the
    /// rooms this user hid. The homeserver's room list is unordered and unpaged: one `/sync` reads every room's
    /// name, members, newest message and unread count, and the page is cut from it here.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        guard limit > 0 else { throw DeliveryError.validation(reason: "a page holds at least one conversation") }
        let sync = try await fullSync(messageLimit: 1)
        let rows = try await rooms(of: sync).filter { !(state.room($0.id)?.hidden ?? false) }
        let ordered = rows.sorted(by: Self.listOrder)
        let start =
            cursor.map { cursor in
                ordered.firstIndex { Self.listOrder(Self.entry(cursor), $0) } ?? ordered.count
            } ?? 0
        let page = ordered[start...].prefix(limit)
        return ConversationPage(conversations: Array(page), hasMore: start + page.count < ordered.count)
    }

    /// Hides `conversation` from this user's list (the room tag `u.courier.hidden`); the others keep it.
    public func hideConversation(_ conversation: ConversationID) async throws(DeliveryError) {
        let me = try await signIn.current().user
        let path = MatrixPath.join("v3", "user", me.rawValue, "rooms", conversation.rawValue, "tags", Self.hiddenTag)
        _ = try await call("PUT", path, json: [:])
        state.update(conversation) { $0.hidden = true }
    }

    /// Shows a hidden conversation again (a message arrived in it).
    func unhide(_ conversation: ConversationID) async throws(DeliveryError) {
        let me = try await signIn.current().user
        let path = MatrixPath.join("v3", "user", me.rawValue, "rooms", conversation.rawValue, "tags", Self.hiddenTag)
        _ = try await call("DELETE", path)
        state.update(conversation) { $0.hidden = false }
    }

    // MARK: - Rooms

    /// A `/sync` from nothing: every joined room with its state and its newest `messageLimit` messages, and the
    /// position it is true at. Invitations are accepted on the way (their rooms come in a later answer).
    func fullSync(messageLimit: Int) async throws(DeliveryError) -> MatrixSyncResponse {
        let query = [
            URLQueryItem(name: "timeout", value: "0"),
            URLQueryItem(name: "filter", value: Self.filter(roomFilter(messageLimit: messageLimit))),
        ]
        let sync = try decode(MatrixSyncResponse.self, try await call("GET", "v3/sync", query: query))
        try await acceptInvitations(sync)
        return sync
    }

    /// The filter of the client's `/sync`s: messages, names and members in timelines, receipts, tags; no presence.
    /// A full sync carries a number of its own (`MatrixState.nextNonce`) in a sender list that matches nobody.
    func roomFilter(messageLimit: Int, fresh: Bool = true) -> [String: Any] {
        var timeline: [String: Any] = [
            "limit": messageLimit,
            "types": ["m.room.message", "m.room.name", "m.room.member", "m.room.redaction"],
        ]
        if fresh { timeline["not_senders"] = ["@courier-\(state.nextNonce()):invalid"] }
        return [
            "room": [
                "timeline": timeline, "state": ["types": ["m.room.name", "m.room.member"]],
                "ephemeral": ["types": ["m.receipt"]], "account_data": ["types": ["m.tag"]],
            ],
            "presence": ["types": [String]()], "account_data": ["types": [String]()],
        ]
    }

    /// Joins every room this user is invited to.
    func acceptInvitations(_ sync: MatrixSyncResponse) async throws(DeliveryError) {
        for room in (sync.rooms?.invite ?? [:]).keys.sorted() {
            _ = try await call("POST", MatrixPath.join("v3", "rooms", room, "join"), json: [:])
        }
    }

    /// Every joined room of `sync` as a conversation row, the client's knowledge of each brought up to date.
    func rooms(of sync: MatrixSyncResponse) async throws(DeliveryError) -> [Conversation] {
        var rows: [Conversation] = []
        for (id, joined) in (sync.rooms?.join ?? [:]).sorted(by: { $0.key < $1.key }) {
            let room = ConversationID(id)
            note(joined, in: room, unread: joined.unread)
            if let row = row(room) { rows.append(row) }
        }
        for id in (sync.rooms?.leave ?? [:]).keys { state.forget(ConversationID(id)) }
        return rows
    }

    /// Takes in what a joined room's part of a `/sync` says: name, members, newest message, tags, unread count.
    /// Returns whether the row changed (name, members or visibility).
    @discardableResult
    func note(_ joined: MatrixSyncResponse.JoinedRoom, in room: ConversationID, unread: Int?) -> Bool {
        let before = state.room(room)
        let events = (joined.state?.events ?? []) + (joined.timeline?.events ?? [])
        // Learned before the room is changed: the state's lock is not taken twice.
        for event in events {
            if let message = event.message(in: room), let eventID = event.eventID {
                state.learn(message, eventID: eventID)
            }
        }
        let after = state.update(room) { row in
            for event in events {
                switch event.type {
                case "m.room.name": row.name = event.content.name.flatMap { $0.isEmpty ? nil : $0 }
                case "m.room.member":
                    guard let member = event.stateKey else { continue }
                    if event.content.membership == "join" {
                        row.members.insert(UserID(member))
                    } else {
                        row.members.remove(UserID(member))
                    }
                case "m.room.message":
                    guard let message = event.message(in: room) else { continue }
                    if row.lastMessage.map({ $0.cursor < message.cursor }) ?? true { row.lastMessage = message }
                default: break
                }
                if let time = event.originServerTS {
                    row.lastActivity = max(row.lastActivity, Date(timeIntervalSince1970: Double(time) / 1_000))
                }
            }
            for event in joined.accountData?.events ?? [] where event.type == "m.tag" {
                row.hidden = event.tags?[Self.hiddenTag] != nil
            }
            if let unread { row.unread = unread }
        }
        return before?.name != after.name || before?.members != after.members || before?.hidden != after.hidden
    }

    /// The conversation of a joined room this client has heard of (from a list read, the feed or its start), as it
    /// last heard of it: what a chat opened by room id is titled from.
    public func knownConversation(_ id: ConversationID) -> Conversation? { row(id) }

    /// The conversation row of a known room.
    func row(_ room: ConversationID) -> Conversation? {
        guard let known = state.room(room) else { return nil }
        return Conversation(
            id: room, participantIDs: known.members.sorted(), name: known.name, lastMessage: known.lastMessage,
            lastActivity: known.lastActivity == .distantPast ? Date(timeIntervalSince1970: 0) : known.lastActivity,
            unreadCount: known.unread)
    }

    /// The list's order: most recent activity first, then id.
    static func listOrder(_ lhs: Conversation, _ rhs: Conversation) -> Bool {
        lhs.lastActivity != rhs.lastActivity ? lhs.lastActivity > rhs.lastActivity : lhs.id < rhs.id
    }

    private static func entry(_ cursor: ConversationCursor) -> Conversation {
        Conversation(id: cursor.id, participantIDs: [], lastActivity: cursor.lastActivity)
    }
}

extension MatrixClient: UserRepository {
    /// The profiles of these users (`GET /profile/{id}`), one request each; unknown users are left out, and a user
    /// without a display name is named by their id's local part.
    public func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        var users: [User] = []
        for id in Array(Set(ids)).sorted() {
            do {
                let profile = try decode(
                    ProfileAnswer.self, try await call("GET", MatrixPath.join("v3", "profile", id.rawValue)))
                users.append(User(id: id, displayName: profile.displayName ?? Self.localPart(id)))
            } catch  where error == .notFound || error.code == .validation || error == .forbidden {
                continue
            }
        }
        return users
    }

    /// Whether these users are online (`GET /presence/{id}/status`); a user whose presence the homeserver does not
    /// share is left out.
    public func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        var answers: [Presence] = []
        for id in Array(Set(ids)).sorted() {
            do {
                let path = MatrixPath.join("v3", "presence", id.rawValue, "status")
                let status = try decode(PresenceAnswer.self, try await call("GET", path))
                let seen = status.lastActiveAgo.map { clock.now.addingTimeInterval(-Double($0) / 1_000) }
                answers.append(Presence(userID: id, isOnline: status.presence == "online", lastSeen: seen))
            } catch  where error == .notFound || error.code == .validation || error == .forbidden {
                continue
            }
        }
        return answers
    }

    /// Sets this user's display name; another user's is `forbidden`.
    public func updateDisplayName(of user: UserID, to name: String) async throws(DeliveryError) {
        let me = try await signIn.current().user
        guard user == me else { throw DeliveryError.forbidden }
        _ = try await call(
            "PUT", MatrixPath.join("v3", "profile", me.rawValue, "displayname"), json: ["displayname": name])
    }

    /// Tells the homeserver this user is online or offline.
    public func setPresence(online: Bool) async throws(DeliveryError) {
        let me = try await signIn.current().user
        _ = try await call(
            "PUT", MatrixPath.join("v3", "presence", me.rawValue, "status"),
            json: ["presence": online ? "online" : "offline"])
    }

    /// `me` of `@me:server`.
    public static func localPart(_ id: UserID) -> String {
        let text = id.rawValue.hasPrefix("@") ? String(id.rawValue.dropFirst()) : id.rawValue
        return String(text.prefix { $0 != ":" })
    }
}

/// `GET /profile/{id}`.
struct ProfileAnswer: Decodable {
    var displayName: String?

    private enum CodingKeys: String, CodingKey { case displayName = "displayname" }
}

/// `GET /presence/{id}/status`.
struct PresenceAnswer: Decodable {
    var presence: String
    var lastActiveAgo: Int64?

    private enum CodingKeys: String, CodingKey {
        case presence
        case lastActiveAgo = "last_active_ago"
    }
}
