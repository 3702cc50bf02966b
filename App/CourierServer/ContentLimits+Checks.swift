import CourierData
import CourierDomain
import Foundation

// MARK: - The checks, callable from any thread (a connection's, before the main actor is asked for anything)

extension ContentLimits {
    /// Refuses (422, naming the limit) a message whose text, ids or media exceed the limits.
    public func check(_ message: Message, in batch: Int? = nil) throws(DeliveryError) {
        let which = batch.map { "message \($0 + 1) of the batch: " } ?? ""
        try checkID(message.id.rawValue, "a message id", prefix: which)
        try checkID(message.conversationID.rawValue, "a conversation id", prefix: which)
        try checkID(message.senderID.rawValue, "a user id", prefix: which)
        let bytes = message.text.utf8.count
        // A text has no more characters than bytes: counting characters (grapheme clusters, the costly part) is
        // needed only past `maxTextCharacters` bytes.
        if bytes > maxTextBytes || (bytes > maxTextCharacters && message.text.count > maxTextCharacters) {
            throw .validation(
                reason: "\(which)a message's text is at most \(maxTextCharacters) characters"
                    + " and \(maxTextBytes) bytes")
        }
        for url in [message.media?.url, message.media?.thumbnailURL].compactMap({ $0 })
        where url.utf8.count > maxURLBytes {
            throw .validation(reason: "\(which)a media URL is at most \(maxURLBytes) bytes")
        }
    }

    /// Refuses (422) a message whose time (its compose stamp) is before `earliestStamp` or more than `maxStampAhead`
    /// past `now`, the server's clock: a stamp from far in the future would keep a conversation above every other
    /// one, and its message below every later one, for good.
    public func checkStamp(_ message: Message, now: Date, prefix: String = "") throws(DeliveryError) {
        let latest = now.addingTimeInterval(maxStampAhead.timeInterval)
        guard message.timestamp >= Self.earliestStamp, message.timestamp <= latest else {
            let hours = Int(maxStampAhead.timeInterval / 3_600)
            throw .validation(
                reason: "\(prefix)a message's time is from 2000-01-01 to \(hours) hours past the server's clock")
        }
    }

    /// Refuses (422) an id longer than `maxIDBytes`, or with a byte that is not visible ASCII.
    public func checkID(_ id: String, _ what: String, prefix: String = "") throws(DeliveryError) {
        guard id.utf8.count <= maxIDBytes else {
            throw .validation(reason: "\(prefix)\(what) is at most \(maxIDBytes) bytes")
        }
        guard Self.isOneSpelling(id) else {
            throw .validation(reason: "\(prefix)\(what) is \(Self.idCharacters)")
        }
    }

    /// What an id may hold, as a refusal names it.
    public static let idCharacters = "visible ASCII only (letters, digits, punctuation)"

    /// Whether `id` has one spelling: visible ASCII (0x21–0x7E) only. Text that is canonically equivalent in Unicode
    /// (an NFC and an NFD "é") compares equal as Swift strings and unequal as bytes, so another backend, a database
    /// or a file name would count one such id as two; direction marks and invisible characters would let one id
    /// pass for another on a screen. Courier's own ids (UUIDs, `c1`, `me`) and a Matrix homeserver's are ASCII.
    public static func isOneSpelling(_ id: String) -> Bool {
        id.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Refuses (422) a display name longer than `maxNameCharacters` (or four bytes a character).
    public func checkName(_ name: String) throws(DeliveryError) {
        guard name.utf8.count <= 4 * maxNameCharacters, name.count <= maxNameCharacters else {
            throw .validation(reason: "a display name is at most \(maxNameCharacters) characters")
        }
    }

    /// The refusal of `request` that needs nothing but its bytes: a message, a batch, a sign-in or a display name
    /// that is malformed or past a limit (422 naming it); nil when the router must look (and for a request without a
    /// token, which is 401 whatever it holds). Run on the connection's thread, so that decoding a large body that
    /// will be refused never holds the main actor, which every other user's requests wait for.
    public func refusal(of request: HTTPRequest) -> DeliveryError? {
        var screened = request
        return screen(&screened)
    }

    /// `refusal(of:)`, keeping in `request.prepared` what it read (the route, a message or batch it decoded) for the
    /// router, which then does not read it again on the main actor.
    public func screen(_ request: inout HTTPRequest) -> DeliveryError? {
        var prepared = request.prepared ?? ChatRouter.prepare(request)
        defer { request.prepared = prepared }
        // Without a token a request is 401 whatever its body (the router says so without decoding it).
        guard request.header("authorization") != nil || prepared.route == .success(.signIn) else { return nil }
        do throws(DeliveryError) {
            switch prepared.route {
            case .success(.putMessage):
                let message = try Self.decode(Message.self, request.body)
                try check(message)
                prepared.body = .message(message)
            case .success(.sendBatch):
                let messages = try Self.decode(HTTPWire.BatchRequest.self, request.body).messages
                guard messages.count <= maxBatchMessages else {
                    throw .validation(reason: "a batch holds at most \(maxBatchMessages) messages")
                }
                for (index, message) in messages.enumerated() { try check(message, in: index) }
                prepared.body = .batch(messages)
            case .success(.signIn):
                let credentials = try Self.decode(HTTPWire.SignInBody.self, request.body)
                try checkID(credentials.userID.rawValue, "a user id")
                guard credentials.password.utf8.count <= Self.maxPasswordBytes else {
                    throw .validation(reason: "a password is at most \(Self.maxPasswordBytes) bytes")
                }
            case .success(.displayName):
                try checkName(try Self.decode(HTTPWire.DisplayNameBody.self, request.body).name)
            default: return nil
            }
        } catch {
            return error
        }
        return nil
    }

    /// The longest password a sign-in may present, in UTF-8 bytes (hashing more is work for nothing).
    public static let maxPasswordBytes = 1_024

    private static func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) throws(DeliveryError) -> Value {
        do {
            return try HTTPWire.decode(type, from: Data(body))
        } catch {
            throw .validation(reason: "the body is not a valid \(type)")
        }
    }
}
