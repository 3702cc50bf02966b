/// Every check of the kit, in the order it runs them; the raw value is the name a line prints, stable between runs.
/// The sections of docs/http-api.md each check holds a backend to are named in docs/scaling.md.
public enum ConformanceCheck: String, CaseIterable, Sendable {
    // Sessions
    case signIn = "sign-in: right password answers 201 with a token and a future expiresAt"
    case signInWrongPassword = "sign-in: wrong password answers 401"
    case conversationList = "conversation list: pages never repeat a conversation"
    // Messages
    case idempotentNew = "idempotent PUT: a new id answers 201 with the stored message"
    case idempotentSame = "idempotent PUT: same content answers 200"
    case idempotentConflict = "idempotent PUT: other content answers 409"
    case idempotentUnchanged = "idempotent PUT: nothing changes (stored once, first content kept)"
    case batchResults = "batch: one result per message, in order, with per-message statuses"
    case batchStored = "batch: stored in order, once each, refused ones not at all"
    case composeOrder = "compose order: timestamp, then id, across single sends and a batch, whatever the arrival order"
    case cursors = "cursors: paging through a conversation never skips or repeats a message"
    // The status table
    case status401 = "status table: 401 unauthorized → DeliveryError.unauthorized"
    case status403 = "status table: 403 forbidden → DeliveryError.forbidden"
    case status404 = "status table: 404 notFound → DeliveryError.notFound"
    case status409 = "status table: 409 conflict → DeliveryError.conflict"
    case status422 = "status table: 422 validation → DeliveryError.validation"
    case revokedToken = "revoked token: DELETE /sessions/current answers 204, then the token is refused 401"
    // Who may do what
    case foreignRead =
        "authorization: user2 cannot read a conversation of user1's they are not in (404, as an unknown one)"
    case foreignWrite = "authorization: user2 cannot write into it (404 as into an unknown one, nothing stored)"
    case senderMismatch = "authorization: a sender other than the signed-in user is 403 in a single send"
    case senderMismatchBatch = "authorization: a sender other than the signed-in user refuses a whole batch (403)"
    case foreignList = "authorization: another user's conversation list is 403"
    case foreignID =
        "authorization: an id used in a conversation user2 is not in is a fresh id to user2 (201, nothing of it shown)"
    // The event feed
    case feedOrder = "event feed: positions strictly increase, own messages in order after the cursor"
    case feedNoGap = "event feed: no gap, user1's message in a shared conversation reaches user2 after its cursor"
    case feedExpired = "event feed: a cursor beyond the newest position answers 410 expired"
}
