import CourierConformance
import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import Foundation

/// One way a backend can break the contract while still answering every request: what `BrokenServer` does wrong, so
/// the kit's tests can see that it notices. Each is a slip a real backend makes.
enum ContractBreach: CaseIterable, Sendable {
    /// Skips the conflict check: a stored id sent with other content is answered 200 with the stored message, the
    /// new content silently dropped.
    case conflictsAccepted
    /// Stores a resend again: a `PUT` of a stored id with the same content is answered 200 but stores a copy under a
    /// new id, as an insert without a unique key on the message id would.
    case duplicatesStoredTwice
    /// Answers `DELETE /sessions/current` with 204 but keeps the token working.
    case revocationIgnored
    /// Answers a cursor it cannot serve with an empty page (200) instead of 410, a silent gap.
    case expiryHidden
    /// Keeps message ids unique across conversations: a `PUT` with an id stored in another conversation is 409,
    /// which tells a user who is not there that it exists.
    case idsGlobal

    /// The checks that must fail against a server with this breach.
    var failingChecks: Set<ConformanceCheck> {
        switch self {
        case .conflictsAccepted: [.idempotentConflict, .status409]
        case .duplicatesStoredTwice: [.idempotentUnchanged]
        case .revocationIgnored: [.revokedToken]
        case .expiryHidden: [.feedExpired]
        case .idsGlobal: [.foreignID]
        }
    }

    /// The answer to `request`: the router's, bent as this breach says.
    @MainActor
    func answer(_ request: HTTPRequest, router: ChatRouter, backend: InMemoryChatBackend) -> HTTPResponse {
        if self == .revocationIgnored, request.method == "DELETE", request.path == "/sessions/current" {
            return HTTPResponse(status: 204)
        }
        let response = router.respond(to: request)
        switch self {
        case .conflictsAccepted where request.method == "PUT" && response.status == 409:
            guard let sent = try? HTTPWire.decode(Message.self, from: Data(request.body)),
                let stored = backend.message(sent.id, in: sent.conversationID), let body = try? HTTPWire.encode(stored)
            else { return response }
            return HTTPResponse(status: 200, body: Array(body))
        case .duplicatesStoredTwice where request.method == "PUT" && response.status == 200:
            guard var copy = try? HTTPWire.decode(Message.self, from: Data(response.body)) else { return response }
            copy.id = MessageID(UUID().uuidString.lowercased())
            _ = try? backend.send(copy, as: copy.senderID)
            return response
        case .idsGlobal where request.method == "PUT":
            guard let sent = try? HTTPWire.decode(Message.self, from: Data(request.body)),
                let elsewhere = backend.message(sent.id), elsewhere.conversationID != sent.conversationID
            else { return response }
            let body = (try? HTTPWire.encode(HTTPWire.body(for: .conflict))).map(Array.init) ?? []
            return HTTPResponse(status: 409, body: body)
        case .expiryHidden where response.status == HTTPWire.expiredStatus:
            let after = request.queryValue("after").flatMap(UInt64.init) ?? 0
            let empty = HTTPWire.EventsBody(FeedBatch(events: [], end: FeedPosition(after), hasMore: false))
            return (try? HTTPWire.encode(empty)).map { HTTPResponse(status: 200, body: Array($0)) } ?? response
        default:
            return response
        }
    }
}
