import CourierData
import CourierDomain
import Foundation

extension MatrixClient: EventFeed {
    /// A homeserver keeps read markers only.
    public var deliveredReceipts: Bool { false }

    /// Where the feed ends now: a `/sync` with nothing held, whose rooms the client takes in on the way (a chat
    /// opened by id before the list was read is known).
    public func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition {
        let sync = try await fullSync(messageLimit: 1)
        _ = try await rooms(of: sync)
        return Self.position(sync.nextBatch)
    }

    /// What happened after `cursor`: one `/sync` long poll held up to `wait`. A room's timeline the homeserver cut
    /// short is back-filled from `/messages` down to the cursor, up to `backfillLimit` events, else named in
    /// `gaps`. Each room's events come in the homeserver's order: messages, then receipts, then the room's row when
    /// it is new or its name, members or visibility changed; every event of a batch stands at the batch's token.
    public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    {
        let timeout = max(0, Int(wait.timeInterval * 1_000))
        let query = [
            URLQueryItem(name: "since", value: cursor.token), URLQueryItem(name: "timeout", value: "\(timeout)"),
            URLQueryItem(
                name: "filter", value: Self.filter(roomFilter(messageLimit: max(1, min(limit, 100)), fresh: false))),
        ]
        let data: Data
        do {
            data = try await call("GET", "v3/sync", query: query, held: wait)
        } catch  where error.code == .validation {
            // A token the homeserver cannot read (not its own, or from before a format change): start over.
            return .expired
        }
        let sync = try decode(MatrixSyncResponse.self, data)
        try await acceptInvitations(sync)
        let position = Self.position(sync.nextBatch)
        var events: [FeedEvent] = []
        var gaps: [ConversationID] = []
        for (id, joined) in (sync.rooms?.join ?? [:]).sorted(by: { $0.key < $1.key }) {
            let room = ConversationID(id)
            let isNew = state.room(room) == nil
            var timeline = joined.timeline?.events ?? []
            if joined.timeline?.limited == true, let from = joined.timeline?.prevBatch {
                if let older = try await backfill(room, from: from, to: cursor.token) {
                    timeline = older + timeline
                } else {
                    gaps.append(room)
                }
            }
            var messages: [Message] = []
            // Messages and redactions, in the timeline's order: a message deleted in this batch goes after it came.
            var changes: [FeedEvent.Change] = []
            for event in timeline {
                if let deletion = event.deletion(in: room, id: { self.state.cursor(of: $0)?.id }) {
                    changes.append(.deletion(deletion))
                    continue
                }
                guard let message = event.message(in: room), let eventID = event.eventID else { continue }
                state.learn(message, eventID: eventID)
                messages.append(message)
                changes.append(.message(message))
            }
            var full = joined
            full.timeline?.events = timeline
            // A room this client has not heard of in this process, named by a `/sync` since a token (a relaunch's
            // first): such a sync carries only the state that changed since, so the room's name and members are
            // read whole first — else its row would say it has no name and no one but me in it.
            if isNew { full.state = .init(events: try await currentState(of: room) + (joined.state?.events ?? [])) }
            // The count is the homeserver's; the device counts what it takes in itself, so only a new row carries it.
            var changed = note(full, in: room, unread: isNew ? joined.unread : nil)
            if !messages.isEmpty, state.room(room)?.hidden == true {
                try await unhide(room)
                changed = true
            }
            events += changes.map { FeedEvent(position: position, change: $0) }
            events += try await receipts(in: joined, room: room).map {
                FeedEvent(position: position, change: .receipt($0))
            }
            if isNew || changed, let row = row(room) {
                events.append(FeedEvent(position: position, change: .conversation(row)))
            }
        }
        for id in (sync.rooms?.leave ?? [:]).keys { state.forget(ConversationID(id)) }
        return .batch(FeedBatch(events: events, end: position, hasMore: false, gaps: gaps))
    }

    /// The room's current name and membership events (`GET /rooms/{id}/state`), for a room a `/sync` since a token
    /// names before this client has heard of it; none when the homeserver will not say (the sync's own events stand).
    func currentState(of room: ConversationID) async throws(DeliveryError) -> [MatrixEvent] {
        let data: Data
        do {
            data = try await call("GET", MatrixPath.join("v3", "rooms", room.rawValue, "state"))
        } catch  where error.code == .notFound || error.code == .forbidden {
            return []
        }
        return try decode([MatrixEvent].self, data).filter { $0.type == "m.room.name" || $0.type == "m.room.member" }
    }

    /// One consistent answer for a device starting over: a `/sync` from nothing with the newest `messageLimit`
    /// messages of every room, its rows (the first `conversationLimit`, hidden ones left out) and the pages of the
    /// chats asked for, true at its token.
    public func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        async throws(DeliveryError) -> FeedSnapshot
    {
        let sync = try await fullSync(messageLimit: max(1, messageLimit))
        let rows = try await rooms(of: sync).filter { !(state.room($0.id)?.hidden ?? false) }
            .sorted(by: Self.listOrder)
        var pages: [ConversationID: MessagePage] = [:]
        for chat in chats {
            guard let timeline = sync.rooms?.join?[chat.rawValue]?.timeline else { continue }
            let messages = timeline.events.compactMap { $0.message(in: chat) }
            if let oldest = messages.first, let token = timeline.prevBatch {
                state.keepPageToken(token, before: oldest.cursor)
            }
            pages[chat] = MessagePage(
                messages: messages, hasMore: timeline.limited, olderToken: timeline.limited ? timeline.prevBatch : nil)
        }
        return FeedSnapshot(
            position: Self.position(sync.nextBatch),
            conversations: ConversationPage(
                conversations: Array(rows.prefix(conversationLimit)), hasMore: rows.count > conversationLimit),
            chats: pages)
    }

    /// Moves this user's read marker to the event at `receipt.upTo` (`m.read`): the event the receipt names
    /// (`upToServerID`), else the one this client learned for the message, else the homeserver's event at its time
    /// (`timestamp_to_event`); a delivered receipt has no place on a homeserver and is dropped.
    public func mark(_ receipt: Receipt) async throws(DeliveryError) {
        guard receipt.kind == .read else { return }
        let room = receipt.conversationID.rawValue
        var eventID = receipt.upToServerID ?? state.eventID(of: receipt.upTo.id)
        if eventID == nil {
            let query = [
                URLQueryItem(name: "ts", value: "\(Self.milliseconds(receipt.upTo.timestamp))"),
                URLQueryItem(name: "dir", value: "b"),
            ]
            let path = MatrixPath.join("v1", "rooms", room, "timestamp_to_event")
            eventID = try decode(EventIDAnswer.self, try await call("GET", path, query: query)).eventID
        }
        guard let eventID else { return }
        _ = try await call("POST", MatrixPath.join("v3", "rooms", room, "receipt", "m.read", eventID), json: [:])
    }

    // MARK: - Parts

    /// The events a cut-short timeline left out, oldest first: `/messages` backwards from `from` down to `to` (the
    /// cursor's token). Nil when there are more than `backfillLimit`.
    private func backfill(_ room: ConversationID, from: String, to: String) async throws(DeliveryError)
        -> [MatrixEvent]?
    {
        var older: [MatrixEvent] = []
        var token = from
        while true {
            let query = [
                URLQueryItem(name: "dir", value: "b"), URLQueryItem(name: "limit", value: "1000"),
                URLQueryItem(name: "from", value: token), URLQueryItem(name: "to", value: to),
                URLQueryItem(
                    name: "filter", value: Self.filter(["types": ["m.room.message", "m.room.name", "m.room.member"]])),
            ]
            let page = try decode(
                MessagesAnswer.self,
                try await call("GET", MatrixPath.join("v3", "rooms", room.rawValue, "messages"), query: query))
            older += page.chunk
            if older.count > backfillLimit { return nil }
            guard let end = page.end, !page.chunk.isEmpty else { break }
            token = end
        }
        return older.reversed()
    }

    /// The read markers of a room's ephemeral events, each at the message it names (learned, or read from the
    /// homeserver once).
    private func receipts(in joined: MatrixSyncResponse.JoinedRoom, room: ConversationID) async throws(DeliveryError)
        -> [Receipt]
    {
        var receipts: [Receipt] = []
        for event in joined.ephemeral?.events ?? [] where event.type == "m.receipt" {
            for (eventID, kinds) in (event.receipts ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let readers = kinds["m.read"], !readers.isEmpty,
                    let upTo = try await cursor(of: eventID, in: room)
                else { continue }
                for reader in readers.keys.sorted() {
                    receipts.append(
                        Receipt(conversationID: room, userID: UserID(reader), kind: .read, upTo: upTo))
                }
            }
        }
        return receipts
    }

    /// Where a message event stands; nil for an event that is not a message.
    private func cursor(of eventID: String, in room: ConversationID) async throws(DeliveryError) -> MessageCursor? {
        if let known = state.cursor(of: eventID) { return known }
        let data: Data
        do {
            data = try await call("GET", MatrixPath.join("v3", "rooms", room.rawValue, "event", eventID))
        } catch  where error == .notFound || error == .forbidden {
            return nil
        }
        guard let message = try decode(MatrixEvent.self, data).message(in: room) else { return nil }
        state.learn(message, eventID: eventID)
        return message.cursor
    }

    /// A `/sync` token as a feed position. Synapse's tokens start with its room stream's position (`s1234_…`):
    /// stated as the position's order, so a homeserver that lost its data and answers with an earlier token is
    /// noticed. Another homeserver's tokens carry no order.
    static func position(_ token: String) -> FeedPosition {
        guard token.first == "s" else { return FeedPosition(token: token) }
        let digits = token.dropFirst().prefix { $0.isASCII && $0.isNumber }
        return FeedPosition(token: token, order: digits.isEmpty ? nil : UInt64(digits))
    }
}
