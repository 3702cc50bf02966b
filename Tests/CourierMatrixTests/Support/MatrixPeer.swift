import Foundation

/// The other person in a conversation, played by a client nobody here wrote: plain requests to the Client-Server
/// API (`MatrixHTTP`), one device of one user. Tests drive it to state what a homeserver does, and later to talk to
/// Courier's adapter from the outside.
struct MatrixPeer: Sendable {
    /// The homeserver's base URL.
    let baseURL: URL
    /// Who this peer is, and the device it speaks as.
    let account: MatrixAccount

    /// The user's id, `@ben-1f2e:localhost`.
    var userID: String { account.userID }

    /// A peer for `account` on the homeserver at `baseURL`.
    init(baseURL: URL, account: MatrixAccount) {
        self.baseURL = baseURL
        self.account = account
    }

    /// Signs `user` (a local part or a full id) in with `password`: as device `deviceID` (a new token of an existing
    /// device), or, when nil, as a new device.
    static func login(
        at baseURL: URL, user: String, password: String, deviceID: String? = nil
    ) async throws -> MatrixPeer {
        var body: [String: Any] = [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": user], "password": password,
        ]
        if let deviceID { body["device_id"] = deviceID }
        let answer = try await MatrixHTTP.send(
            "POST", MatrixHTTP.url(baseURL, ["_matrix", "client", "v3", "login"]), body: body)
        guard let account = MatrixAccount(answer: answer, password: password) else {
            throw MatrixHTTPError(request: "POST /login", status: 200, errcode: nil, body: "\(answer)")
        }
        return MatrixPeer(baseURL: baseURL, account: account)
    }

    /// The same user signed in again, as `deviceID` or, when nil, as a new device.
    func login(deviceID: String? = nil) async throws -> MatrixPeer {
        try await Self.login(at: baseURL, user: account.userID, password: account.password, deviceID: deviceID)
    }

    // MARK: - Rooms and messages

    /// Creates a private direct chat named `name`, inviting `invite` (user ids); its room id.
    func createRoom(name: String, invite: [String] = []) async throws -> String {
        let body: [String: Any] = ["name": name, "preset": "private_chat", "is_direct": true, "invite": invite]
        let answer = try await request("POST", ["createRoom"], body: body)
        guard let roomID = answer["room_id"] as? String else { throw unexpected("POST /createRoom", answer) }
        return roomID
    }

    /// Joins `roomID` (accepting an invitation).
    func join(_ roomID: String) async throws {
        _ = try await request("POST", ["rooms", roomID, "join"], body: [:])
    }

    /// Sends `text` to `roomID` with transaction id `txnID` and `extra` content keys; the event id the server
    /// answers.
    func send(_ roomID: String, _ text: String, txnID: String, extra: [String: Any] = [:]) async throws -> String {
        var content = extra
        content["msgtype"] = "m.text"
        content["body"] = text
        let answer = try await request("PUT", ["rooms", roomID, "send", "m.room.message", txnID], body: content)
        guard let eventID = answer["event_id"] as? String else { throw unexpected("PUT /send", answer) }
        return eventID
    }

    /// Every message of `roomID`, in the server's order, oldest first: `/messages` paged backwards to the start.
    func messages(_ roomID: String) async throws -> [PeerEvent] {
        try await messages(roomID, from: nil, to: nil)
    }

    /// Every message of `roomID` once its history holds at least `count` (asked again 50 ms apart, at most 200
    /// times): on PostgreSQL, history may lag the live feed for a moment right after a send (docs/matrix.md). More
    /// than `count` is returned as it is, so a duplicate still shows.
    func messages(_ roomID: String, count: Int) async throws -> [PeerEvent] {
        var held = try await messages(roomID)
        for _ in 0..<200 where held.count < count {
            try await Task.sleep(for: .milliseconds(50))
            held = try await messages(roomID)
        }
        return held
    }

    /// The messages of `roomID` between the tokens `from` (the newer end; nil: the live end) and `to` (the older
    /// end; nil: the room's start), oldest first: `/messages?dir=b` paged until an answer has no `end`.
    func messages(_ roomID: String, from: String?, to: String?) async throws -> [PeerEvent] {
        var newestFirst: [PeerEvent] = []
        var cursor = from
        for _ in 0..<1_000 {
            var query = [("dir", "b"), ("limit", "100"), ("filter", #"{"types":["m.room.message"]}"#)]
            if let cursor { query.append(("from", cursor)) }
            if let to { query.append(("to", to)) }
            let page = try await request("GET", ["rooms", roomID, "messages"], query: query)
            let chunk = page["chunk"] as? [[String: Any]] ?? []
            newestFirst += chunk.compactMap(PeerEvent.init)
            guard let end = page["end"] as? String else { break }
            cursor = end
        }
        return newestFirst.reversed()
    }

    // MARK: - Sync, receipts, presence

    /// One `/sync`: from `since` (nil: an initial sync), held up to `timeout` ms for something new, each room's
    /// timeline cut to `timelineLimit` events when given; the next batch token and the whole answer.
    func sync(
        since: String? = nil, timeout: Int = 0, timelineLimit: Int? = nil
    ) async throws -> (nextBatch: String, json: [String: Any]) {
        var query = [("timeout", String(timeout))]
        if let since { query.append(("since", since)) }
        if let timelineLimit { query.append(("filter", #"{"room":{"timeline":{"limit":\#(timelineLimit)}}}"#)) }
        let answer = try await request("GET", ["sync"], query: query)
        guard let nextBatch = answer["next_batch"] as? String else { throw unexpected("GET /sync", answer) }
        return (nextBatch, answer)
    }

    /// Redacts (deletes for everyone) the event `eventID` of `roomID`, with transaction id `txnID`.
    func redact(_ roomID: String, _ eventID: String, txnID: String) async throws {
        _ = try await request("PUT", ["rooms", roomID, "redact", eventID, txnID], body: [:])
    }

    /// Marks `roomID` read up to `eventID` (an `m.read` receipt, which every member sees).
    func read(_ roomID: String, _ eventID: String) async throws {
        _ = try await request("POST", ["rooms", roomID, "receipt", "m.read", eventID], body: [:])
    }

    /// Sets this user's presence: `online`, `unavailable` or `offline`.
    func setPresence(_ presence: String) async throws {
        _ = try await request("PUT", ["presence", account.userID, "status"], body: ["presence": presence])
    }

    /// Sets this user's display name.
    func setDisplayName(_ name: String) async throws {
        _ = try await request("PUT", ["profile", account.userID, "displayname"], body: ["displayname": name])
    }

    /// Sends `method` to `segments` below `/_matrix/client/v3/` as this device.
    func request(
        _ method: String, _ segments: [String], query: [(String, String)] = [], body: [String: Any]? = nil
    ) async throws -> [String: Any] {
        let url = MatrixHTTP.url(baseURL, ["_matrix", "client", "v3"] + segments, query: query)
        return try await MatrixHTTP.send(method, url, token: account.accessToken, body: body)
    }

    private func unexpected(_ request: String, _ answer: [String: Any]) -> MatrixHTTPError {
        MatrixHTTPError(request: request, status: 200, errcode: nil, body: "\(answer)")
    }
}
