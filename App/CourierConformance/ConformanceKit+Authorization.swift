import CourierData
import CourierDomain
import Foundation

// MARK: - Who may do what (docs/http-api.md, "Conventions": 403, or 404 for a conversation not one's own, and
// nothing changes)

extension ConformanceKit {
    /// With a second user: they cannot read or write a conversation of user one's they are not in, cannot send as
    /// user one (alone or in a batch, which is then refused whole), and cannot read user one's conversation list.
    /// Each refusal stores nothing: 404 for the conversation they are not in (as for one that does not exist), 403
    /// for the rest.
    func checkAuthorization() async {
        guard let user2 else {
            let reason = options.user2 == nil ? "needs --user2 and --password2" : "user2 did not sign in"
            for check in [
                ConformanceCheck.foreignRead, .foreignWrite, .senderMismatch, .senderMismatchBatch,
                .foreignList, .foreignID,
            ] {
                skip(check, reason)
            }
            return
        }
        await checkForeignConversation(as: user2)
        await checkSenderMismatch(as: user2)
        await check(.foreignList) { () async throws(ConformanceFailure) in
            let owner = try signedIn().id
            try await user2.send(.conversations(of: owner, after: nil, limit: nil))
                .expect(403, error: "forbidden", "GET /users/\(owner)/conversations as \(user2.id)")
        }
        await checkForeignID(as: user2)
    }

    private func checkForeignConversation(as user2: ConformanceUser) async {
        guard let foreign else {
            let reason = "every conversation of \(options.user.id)'s includes \(user2.id)"
            skip(.foreignRead, reason)
            skip(.foreignWrite, reason)
            return
        }
        // One answer for "not yours" and "does not exist": the same status and body as for an id nobody uses.
        let unknown = ConversationID("conformance-unknown-\(UUID().uuidString)")
        await check(.foreignRead) { () async throws(ConformanceFailure) in
            let reads: [(ConversationID) -> HTTPRoute] = [
                { .conversation($0) }, { .messages($0, before: nil, limit: nil) },
            ]
            for read in reads {
                let what = "\(read(foreign)) as \(user2.id)"
                let refused = try await user2.send(read(foreign)).expect(404, error: "notFound", what)
                let absent = try await user2.send(read(unknown))
                try ConformanceFailure.require(
                    absent.status == 404 && absent.errorBody?.reason == refused.errorBody?.reason,
                    "\(what) answered otherwise than for an unknown conversation (\(absent.summary))")
            }
        }
        await check(.foreignWrite) { () async throws(ConformanceFailure) in
            let owner = try signedIn()
            let before = try await owner.messageCount(in: foreign)
            let intruder = freshMessage("intruder", in: foreign, from: user2.id)
            try await user2.put(intruder).expect(404, error: "notFound", "PUT into \(foreign) as \(user2.id)")
            try await user2.batch([freshMessage("intruder batch", in: foreign, from: user2.id)], in: foreign)
                .expect(404, error: "notFound", "POST messages:batch into \(foreign) as \(user2.id)")
            let after = try await owner.messageCount(in: foreign)
            try ConformanceFailure.require(after == before, "\(foreign) went from \(before) to \(after) messages")
        }
    }

    /// An id names a message within its conversation: user2 writing with the id of a message of a conversation
    /// user2 is not in gets what an id of its own gets — 201, or 200 with its own message when an earlier run stored
    /// it — never the 409 that would tell that the id exists there. The kit writes only where both users are: the id
    /// is one user1 reads, and the message user2 writes goes into the conversation they share.
    private func checkForeignID(as user2: ConformanceUser) async {
        guard let foreign, let shared else {
            skip(.foreignID, "needs a conversation of \(options.user.id)'s without \(user2.id) and one with")
            return
        }
        await check(.foreignID) { () async throws(ConformanceFailure) in
            let owner = try signedIn()
            guard let hidden = try await owner.page(of: foreign, limit: 1).messages.last else {
                throw ConformanceFailure("\(foreign) holds no message whose id to use")
            }
            let guess = Message(
                id: hidden.id, conversationID: shared, senderID: user2.id, text: "conformance: an id used elsewhere",
                timestamp: hidden.timestamp, status: .sending)
            let reply = try await user2.put(guess)
            let what = "PUT as \(user2.id) into \(shared) with the id of a message in \(foreign)"
            try ConformanceFailure.require(
                reply.status == 201 || reply.status == 200, "\(what) answered \(reply.summary)")
            let stored = try reply.decode(Message.self)
            try ConformanceFailure.require(
                stored.text == guess.text && stored.conversationID == shared && stored.senderID == user2.id,
                "\(what) answered with another message than the one sent")
            let kept = try await owner.page(of: foreign, limit: 1).messages.last
            try ConformanceFailure.require(kept?.text == hidden.text, "the message in \(foreign) changed")
        }
    }

    private func checkSenderMismatch(as user2: ConformanceUser) async {
        guard let shared else {
            let reason = "\(options.user.id) and \(user2.id) share no conversation"
            skip(.senderMismatch, reason)
            skip(.senderMismatchBatch, reason)
            return
        }
        await check(.senderMismatch) { () async throws(ConformanceFailure) in
            let owner = try signedIn()
            let before = try await owner.messageCount(in: shared)
            let forged = freshMessage("forged sender", in: shared, from: owner.id)
            try await user2.put(forged)
                .expect(403, error: "forbidden", "PUT as \(user2.id) of a message whose senderID is \(owner.id)")
            let after = try await owner.messageCount(in: shared)
            try ConformanceFailure.require(after == before, "\(shared) went from \(before) to \(after) messages")
        }
        await check(.senderMismatchBatch) { () async throws(ConformanceFailure) in
            let owner = try signedIn()
            let before = try await owner.messageCount(in: shared)
            let honest = freshMessage("honest, in a forged batch", in: shared, from: user2.id)
            let forged = freshMessage("forged sender in a batch", in: shared, from: owner.id)
            let what = "a batch by \(user2.id) holding a message whose senderID is \(owner.id)"
            try await user2.batch([honest, forged], in: shared).expect(403, error: "forbidden", what)
            let after = try await owner.messageCount(in: shared)
            try ConformanceFailure.require(
                after == before, "\(shared) went from \(before) to \(after) messages (the honest one was stored?)")
        }
    }
}
