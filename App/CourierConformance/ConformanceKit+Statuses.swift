import CourierData
import CourierDomain
import Foundation

// MARK: - Status codes → DeliveryError (docs/http-api.md, "Status codes → DeliveryError")

extension ConformanceKit {
    /// Provokes each refusal a client must tell apart — no token (401), another user's list (403), an unknown
    /// conversation (404), a reused id (409), a blank text (422) — and checks the status, the error's name and what
    /// `HTTPWire.error(status:body:)` makes of the answer, which is what the outbox acts on.
    func checkStatusTable() async {
        await check(.status401) { () async throws(ConformanceFailure) in
            let bare = try await http.send(.feedEnd, bearer: nil)
            try expect(bare, 401, "unauthorized", .unauthorized, "GET /events/end without a token")
            let unknown = try await http.send(.feedEnd, bearer: String(repeating: "0", count: 64))
            try expect(unknown, 401, "unauthorized", .unauthorized, "GET /events/end with a token never granted")
        }
        await check(.status403) { () async throws(ConformanceFailure) in
            let user = try signedIn()
            let other = options.user2?.id.rawValue ?? "conformance-nobody-\(UUID().uuidString.lowercased())"
            let reply = try await user.send(.conversations(of: UserID(other), after: nil, limit: nil))
            try expect(reply, 403, "forbidden", .forbidden, "GET /users/\(other)/conversations as \(user.id)")
        }
        await check(.status404) { () async throws(ConformanceFailure) in
            let user = try signedIn()
            let unknown = "conformance-\(UUID().uuidString.lowercased())"
            let reply = try await user.send(.conversation(ConversationID(unknown)))
            try expect(reply, 404, "notFound", .notFound, "GET /conversations/\(unknown)")
        }
        await check(.status409) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            let message = freshMessage("status 409", in: conversation)
            try await user.put(message).expect(201, "PUT of a new id")
            var other = message
            other.text += " (other content)"
            try expect(try await user.put(other), 409, "conflict", .conflict, "PUT of a stored id with other text")
        }
        await check(.status422) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            var blank = freshMessage("", in: conversation)
            blank.text = "   "
            let reply = try await user.put(blank).expect(422, error: "validation", "PUT of a blank text")
            guard reply.deliveryError.code == .validation else {
                throw ConformanceFailure("HTTPWire.error makes \(reply.deliveryError) of a 422, not .validation")
            }
        }
    }

    /// Fails unless `reply` has `status`, the error body names `name`, and the client reads it as `error`.
    private func expect(
        _ reply: ConformanceReply, _ status: Int, _ name: String, _ error: DeliveryError, _ what: String
    ) throws(ConformanceFailure) {
        try reply.expect(status, error: name, what)
        try ConformanceFailure.require(
            reply.deliveryError == error, "HTTPWire.error makes \(reply.deliveryError) of \(what), not \(error)")
    }
}
