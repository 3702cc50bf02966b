import CourierData
import CourierDomain
import Foundation

// MARK: - Sign-in, the conversation list, revocation (docs/http-api.md, "Sessions")

extension ConformanceKit {
    /// Signs the users in (201 with a token and a future expiry) and checks that a wrong password is 401. The wrong
    /// attempt is followed by a right one (the revocation check's), which clears a throttle's count of failures.
    func checkSessions() async {
        await check(.signIn) { () async throws(ConformanceFailure) in
            user1 = try await signIn(options.user)
            if let second = options.user2 { user2 = try await signIn(second) }
        }
        guard user1 != nil else { return }
        await check(.signInWrongPassword) { () async throws(ConformanceFailure) in
            let body = try ConformanceUser.encode(
                HTTPWire.SignInBody(userID: options.user.id, password: options.user.password + "-not-it"))
            try await http.send(.signIn, body: body, bearer: nil)
                .expect(401, error: "unauthorized", "POST /sessions with a wrong password")
        }
    }

    /// A session of `credentials`: `POST /sessions` answering 201 with a token and an expiry in the future.
    func signIn(_ credentials: ConformanceOptions.Credentials) async throws(ConformanceFailure) -> ConformanceUser {
        let body = try ConformanceUser.encode(
            HTTPWire.SignInBody(userID: credentials.id, password: credentials.password))
        let what = "POST /sessions as \(credentials.id)"
        let session = try await http.send(.signIn, body: body, bearer: nil).expect(201, what)
            .decode(HTTPWire.SessionBody.self)
        try ConformanceFailure.require(!session.token.isEmpty, "\(what) answered an empty token")
        try ConformanceFailure.require(
            session.expiresAt > Date(), "\(what) answered a token that expired already (\(session.expiresAt))")
        return ConformanceUser(id: credentials.id, token: session.token, http: http)
    }

    /// Pages through user one's conversations (no conversation twice) and picks where the other checks write: a
    /// conversation shared with user two, and one of user one's that user two is not in.
    func checkConversationList() async {
        await check(.conversationList) { () async throws(ConformanceFailure) in
            let user = try signedIn()
            let conversations = try await user.conversations()
            var seen = Set<ConversationID>()
            for conversation in conversations {
                try ConformanceFailure.require(
                    seen.insert(conversation.id).inserted, "conversation \(conversation.id) came twice")
                try ConformanceFailure.require(
                    conversation.participantIDs.contains(user.id),
                    "\(user.id)'s list holds \(conversation.id), whose participants exclude them")
            }
            if let second = options.user2?.id {
                shared = conversations.first { $0.participantIDs.contains(second) }?.id
                foreign = conversations.first { !$0.participantIDs.contains(second) }?.id
            }
            writable = shared ?? conversations.first?.id
        }
    }

    /// A fresh session works, is revoked by `DELETE /sessions/current` (204), and is refused from then on (401),
    /// while user one's other session still works.
    func checkRevokedToken() async {
        await check(.revokedToken) { () async throws(ConformanceFailure) in
            let main = try signedIn()
            let doomed = try await signIn(options.user)
            try await doomed.send(.feedEnd).expect(200, "GET /events/end with a fresh token")
            try await doomed.send(.signOut).expect(204)
            try await doomed.send(.feedEnd)
                .expect(401, error: "unauthorized", "GET /events/end with the revoked token")
            try await main.send(.feedEnd)
                .expect(200, "GET /events/end with another session of the same user (only one token was revoked)")
        }
    }
}
