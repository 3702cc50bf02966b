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
        var conflicts = Set<Int>()
        var accepted: [Message] = []
        var seen: [MessageID: Message] = [:]
        for (index, message) in messages.enumerated() {
            let known = backend.message(message.id, in: conversation) ?? seen[message.id]
            if let known, !Self.sameContent(known, message) {
                conflicts.insert(index)
            } else {
                accepted.append(message)
                seen[message.id] = seen[message.id] ?? message
            }
        }
        // Applied in order: a message repeated within the batch finds its first copy stored, as a PUT would (200).
        var earlier = Set<MessageID>()
        let wasStored = accepted.map { message in
            defer { earlier.insert(message.id) }
            return backend.message(message.id, in: conversation) != nil || earlier.contains(message.id)
                || backend.isDeleted(message.id, in: conversation)
        }
        var results = try backend.sendBatch(accepted, as: user).makeIterator()
        var stored = wasStored.makeIterator()
        var items: [HTTPWire.BatchItem] = []
        for index in messages.indices {
            if conflicts.contains(index) {
                items.append(HTTPWire.BatchItem(status: 409, error: HTTPWire.body(for: .conflict)))
                continue
            }
            let existed = stored.next() ?? false
            switch results.next() {
            case .success(let message)?: items.append(HTTPWire.BatchItem(status: existed ? 200 : 201, message: message))
            case .failure(let error)?:
                items.append(HTTPWire.BatchItem(status: HTTPWire.status(for: error), error: HTTPWire.body(for: error)))
            case nil: items.append(HTTPWire.BatchItem(status: 500, error: HTTPWire.body(for: .server(code: 500))))
            }
        }
        // Encoded as it is sent, on the connection's thread: not in the main actor's line.
        return HTTPResponse(status: 200, encoding: HTTPWire.BatchResponse(results: items))
    }
}
