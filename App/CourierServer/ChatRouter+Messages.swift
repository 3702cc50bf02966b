import CourierData
import CourierDomain
import CourierFakes
import Foundation

// MARK: - Messages: a single send and a batch (docs/http-api.md, "Idempotent send", "Batch send")

extension ChatRouter {

    /// `decoded`: the body as the connection's thread read it (and checked it against the limits), when it did.
    func putMessage(
        conversation: ConversationID, id: MessageID, body: [UInt8], decoded: PreparedRequest.Body?, as user: UserID
    ) throws(DeliveryError) -> HTTPResponse {
        // Read and checked against the limits on the connection's thread already, when `decoded` holds it.
        let message: Message
        if case .message(let read) = decoded {
            message = read
        } else {
            message = try decode(Message.self, body)
            try limits.check(message)
        }
        try limits.checkStamp(message, now: sessions.now)
        guard message.id == id, message.conversationID == conversation else {
            throw .validation(reason: "the body's id and conversation must match the path")
        }
        try backend.authorizeWrites([message], by: user)
        try charge(1, by: user)
        // An id names a message within its conversation: one used elsewhere, where this user may not be, is not
        // this one, and the answer tells nothing of it.
        let held = backend.message(id, in: conversation)
        if let held, !Self.sameContent(held, message) { throw .conflict }
        // A message its sender deleted was stored once: a resend is answered 200, as a duplicate, and not stored.
        let isNew = held == nil && !backend.isDeleted(id, in: conversation)
        let stored = try backend.send(message, as: user)
        return try ok(stored, status: isNew ? 201 : 200)
    }

    func batch(conversation: ConversationID, body: [UInt8], decoded: PreparedRequest.Body?, as user: UserID)
        throws(DeliveryError) -> HTTPResponse
    {
        var work = try startBatch(conversation: conversation, body: body, decoded: decoded, as: user)
        while !work.isDone { work = continueBatch(work) }
        return Self.response(to: work)
    }

    /// A signed-in batch of more than one turn (`batchTurn` messages, `batchTurnBytes` of text), checked whole (the limits, the conversation, who may
    /// write, the write rate) and its first `batchTurn` messages applied; nil for any other request, which
    /// `route(_:)` answers. `ChatServer` applies the rest in turns of their own (`continueBatch(_:)`), so that
    /// another user's request waits for one turn of a large batch, not for all of it.
    public func startBatchInTurns(_ request: HTTPRequest) -> BatchInTurns? {
        guard case .success(.sendBatch(let conversation))? = request.prepared?.route,
            case .batch(let messages)? = request.prepared?.body,
            messages.count > Self.batchTurn
                || messages.reduce(0, { $0 + $1.text.utf8.count }) > Self.batchTurnBytes,
            let token = Self.bearer(of: request), let user = sessions.user(presenting: token)
        else { return nil }
        do throws(DeliveryError) {
            return continueBatch(
                try startBatch(conversation: conversation, body: [], decoded: .batch(messages), as: user))
        } catch {
            return BatchInTurns(conversation: conversation, user: user, messages: [], failure: error)
        }
    }

    /// The batch checked whole, nothing applied yet.
    private func startBatch(
        conversation: ConversationID, body: [UInt8], decoded: PreparedRequest.Body?, as user: UserID
    ) throws(DeliveryError) -> BatchInTurns {
        // Read and checked against the limits on the connection's thread already, when `decoded` holds it.
        let messages: [Message]
        if case .batch(let read) = decoded {
            messages = read
        } else {
            messages = try decode(HTTPWire.BatchRequest.self, body).messages
            guard messages.count <= limits.maxBatchMessages else {
                throw .validation(reason: "a batch holds at most \(limits.maxBatchMessages) messages")
            }
            for (index, message) in messages.enumerated() { try limits.check(message, in: index) }
        }
        for (index, message) in messages.enumerated() {
            try limits.checkStamp(message, now: sessions.now, prefix: "message \(index + 1) of the batch: ")
        }
        guard messages.allSatisfy({ $0.conversationID == conversation }) else {
            throw .validation(reason: "every message of a batch belongs to the conversation of the path")
        }
        try backend.authorizeWrites(messages, by: user)
        try charge(messages.count, by: user)
        return BatchInTurns(conversation: conversation, user: user, messages: messages)
    }

    /// `work` with its next turn of messages applied (at most `batchTurn`, and `batchTurnBytes` of text unless one
    /// message alone holds more), in order, in one journal append: a message repeated within
    /// the batch finds its first copy stored, as a `PUT` would (200); an id stored with other content is 409.
    public func continueBatch(_ work: BatchInTurns) -> BatchInTurns {
        var work = work
        guard !work.isDone else { return work }
        let conversation = work.conversation
        // At most `batchTurn` messages and `batchTurnBytes` of text (at least one message).
        var end = work.next
        var bytes = 0
        while end < work.messages.count, end - work.next < Self.batchTurn {
            bytes += work.messages[end].text.utf8.count
            if end > work.next, bytes > Self.batchTurnBytes { break }
            end += 1
        }
        let turn = work.messages[work.next..<end]
        var conflicts = Set<Int>()
        var accepted: [Message] = []
        var seen: [MessageID: Message] = [:]
        for (index, message) in zip(turn.indices, turn) {
            let known = backend.message(message.id, in: conversation) ?? seen[message.id]
            if let known, !Self.sameContent(known, message) {
                conflicts.insert(index)
            } else {
                accepted.append(message)
                seen[message.id] = seen[message.id] ?? message
            }
        }
        var earlier = Set<MessageID>()
        let wasStored = accepted.map { message in
            defer { earlier.insert(message.id) }
            return backend.message(message.id, in: conversation) != nil || earlier.contains(message.id)
                || backend.isDeleted(message.id, in: conversation)
        }
        let outcomes: [Result<Message, DeliveryError>]
        do {
            outcomes = try backend.sendBatch(accepted, as: work.user)
        } catch {
            work.failure = error
            return work
        }
        var results = outcomes.makeIterator()
        var stored = wasStored.makeIterator()
        for index in turn.indices {
            if conflicts.contains(index) {
                work.items.append(HTTPWire.BatchItem(status: 409, error: HTTPWire.body(for: .conflict)))
                continue
            }
            let existed = stored.next() ?? false
            switch results.next() {
            case .success(let message)?:
                work.items.append(HTTPWire.BatchItem(status: existed ? 200 : 201, message: message))
            case .failure(let error)?:
                work.items.append(
                    HTTPWire.BatchItem(status: HTTPWire.status(for: error), error: HTTPWire.body(for: error)))
            case nil: work.items.append(HTTPWire.BatchItem(status: 500, error: HTTPWire.body(for: .server(code: 500))))
            }
        }
        work.next = turn.endIndex
        return work
    }

    /// The answer to a batch applied: one result per message, encoded as it is sent, on the connection's thread (not
    /// in the main actor's line); or the error that stopped it.
    public nonisolated static func response(to work: BatchInTurns) -> HTTPResponse {
        if let failure = work.failure { return failureResponse(failure) }
        return HTTPResponse(status: 200, encoding: HTTPWire.BatchResponse(results: work.items))
    }
}

/// A batch being applied in turns of `ChatRouter.batchTurn` messages (`ChatRouter.startBatchInTurns(_:)`).
public struct BatchInTurns: Sendable {
    let conversation: ConversationID
    let user: UserID
    let messages: [Message]
    /// The first message not applied yet.
    var next = 0
    /// The results of the messages applied, in order.
    var items: [HTTPWire.BatchItem] = []
    /// What stopped the batch: refused whole, or a journal that refused a turn (the turns before it are stored).
    var failure: DeliveryError?

    /// Whether nothing is left to apply.
    public var isDone: Bool { failure != nil || next >= messages.count }
}
