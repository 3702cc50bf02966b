import CourierData
import CourierDomain
import Foundation

// MARK: - What one request may ask (`ContentLimits`, docs/http-api.md "Limits of courier-server")

extension ChatRouter {
    /// Takes `count` writes from `user`'s rate: 429 with the seconds to wait when they do not fit.
    func charge(_ count: Int, by user: UserID) throws(DeliveryError) {
        if let wait = writeRates.take(count, by: user, at: sessions.now) {
            throw .rateLimited(retryAfter: .seconds(wait))
        }
    }

    /// The query's `ids` (the route's, split at commas) within limits: duplicates dropped (first kept), at most
    /// `maxQueryIDs` distinct ones, each at most `maxIDBytes` of visible ASCII.
    func checked(_ asked: [UserID]) throws(DeliveryError) -> [UserID] {
        var seen = Set<UserID>()
        var ids: [UserID] = []
        for id in asked where seen.insert(id).inserted {
            guard ids.count < limits.maxQueryIDs else {
                throw .validation(reason: "ids holds at most \(limits.maxQueryIDs) distinct ids")
            }
            try limits.checkID(id.rawValue, "an id")
            ids.append(id)
        }
        return ids
    }

    /// A refusal's answer; a 429 says when to ask again in `Retry-After`.
    func failure(_ error: DeliveryError, status: Int? = nil) -> HTTPResponse {
        Self.failureResponse(error, status: status)
    }

    /// `failure(_:status:)`, from any thread.
    nonisolated static func failureResponse(_ error: DeliveryError, status: Int? = nil) -> HTTPResponse {
        let body = (try? HTTPWire.encode(HTTPWire.body(for: error))).map(Array.init) ?? []
        var response = HTTPResponse(status: status ?? HTTPWire.status(for: error), body: body)
        if let wait = error.retryAfter {
            response.headers.append((HTTPWire.retryAfterHeader, "\(max(1, wait.components.seconds))"))
        }
        return response
    }
}
