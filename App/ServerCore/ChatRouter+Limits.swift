import CourierData
import CourierDomain
import Foundation

// MARK: - What one request may ask (`ContentLimits`, docs/http-api.md "Limits of courier-server")

extension ChatRouter {
    /// Refuses (422, naming the limit) a message whose text, ids or media exceed the limits.
    func check(_ message: Message, in batch: Int? = nil) throws(DeliveryError) {
        let which = batch.map { "message \($0 + 1) of the batch: " } ?? ""
        try checkID(message.id.rawValue, "a message id", prefix: which)
        try checkID(message.conversationID.rawValue, "a conversation id", prefix: which)
        try checkID(message.senderID.rawValue, "a user id", prefix: which)
        let bytes = message.text.utf8.count
        if bytes > limits.maxTextBytes || message.text.count > limits.maxTextCharacters {
            throw .validation(
                reason: "\(which)a message's text is at most \(limits.maxTextCharacters) characters"
                    + " and \(limits.maxTextBytes) bytes")
        }
        for url in [message.media?.url, message.media?.thumbnailURL].compactMap({ $0 })
        where url.utf8.count > limits.maxURLBytes {
            throw .validation(reason: "\(which)a media URL is at most \(limits.maxURLBytes) bytes")
        }
    }

    /// Refuses (422) an id longer than `maxIDBytes`.
    func checkID(_ id: String, _ what: String, prefix: String = "") throws(DeliveryError) {
        guard id.utf8.count <= limits.maxIDBytes else {
            throw .validation(reason: "\(prefix)\(what) is at most \(limits.maxIDBytes) bytes")
        }
    }

    /// Refuses (422) a display name longer than `maxNameCharacters` (or four bytes a character).
    func checkName(_ name: String) throws(DeliveryError) {
        guard name.utf8.count <= 4 * limits.maxNameCharacters, name.count <= limits.maxNameCharacters else {
            throw .validation(reason: "a display name is at most \(limits.maxNameCharacters) characters")
        }
    }

    /// Takes `count` writes from `user`'s rate: 429 with the seconds to wait when they do not fit.
    func charge(_ count: Int, by user: UserID) throws(DeliveryError) {
        if let wait = writeRates.take(count, by: user, at: sessions.now) {
            throw .rateLimited(retryAfter: .seconds(wait))
        }
    }

    /// The query's `ids`: required, split at commas, duplicates dropped (first kept), at most `maxQueryIDs` distinct
    /// ones, each at most `maxIDBytes`.
    func ids(_ request: HTTPRequest) throws(DeliveryError) -> [UserID] {
        guard let text = request.queryValue("ids") else { throw .validation(reason: "ids is required") }
        var seen = Set<Substring>()
        var ids: [UserID] = []
        for piece in text.split(separator: ",") where seen.insert(piece).inserted {
            guard ids.count < limits.maxQueryIDs else {
                throw .validation(reason: "ids holds at most \(limits.maxQueryIDs) distinct ids")
            }
            try checkID(String(piece), "an id")
            ids.append(UserID(String(piece)))
        }
        return ids
    }

    /// A refusal's answer; a 429 says when to ask again in `Retry-After`.
    func failure(_ error: DeliveryError, status: Int? = nil) -> HTTPResponse {
        let body = (try? HTTPWire.encode(HTTPWire.body(for: error))).map(Array.init) ?? []
        var response = HTTPResponse(status: status ?? HTTPWire.status(for: error), body: body)
        if let wait = error.retryAfter {
            response.headers.append((HTTPWire.retryAfterHeader, "\(max(1, wait.components.seconds))"))
        }
        return response
    }
}
