import CourierData
import CourierDomain
import Foundation

// MARK: - Idempotent send, batches, compose order, cursors (docs/http-api.md, "Endpoints")

extension ConformanceKit {
    /// One fresh message `PUT` three times: new (201), again (200, the stored message), with other text (409); then
    /// the backend holds it once, with the first text, and its conversation grew by one.
    func checkIdempotentPut() async {
        guard let (user, conversation) = try? writer() else {
            for check in [ConformanceCheck.idempotentNew, .idempotentSame, .idempotentConflict, .idempotentUnchanged] {
                await self.check(check) { () throws(ConformanceFailure) in _ = try writer() }
            }
            return
        }
        let message = freshMessage("idempotent PUT", in: conversation)
        var countBefore: Int?
        await check(.idempotentNew) { () async throws(ConformanceFailure) in
            countBefore = try await user.messageCount(in: conversation)
            let stored = try await user.put(message).expect(201, "PUT of a new id").decode(Message.self)
            try ConformanceFailure.require(
                stored.id == message.id && stored.text == message.text, "the 201 answer is not the message sent")
        }
        await check(.idempotentSame) { () async throws(ConformanceFailure) in
            let stored = try await user.put(message).expect(200, "PUT of the same id with the same content")
                .decode(Message.self)
            try ConformanceFailure.require(
                stored.id == message.id && stored.text == message.text, "the 200 answer is not the stored message")
        }
        await check(.idempotentConflict) { () async throws(ConformanceFailure) in
            var other = message
            other.text += " (other content)"
            try await user.put(other).expect(409, error: "conflict", "PUT of the same id with other text")
        }
        await check(.idempotentUnchanged) { () async throws(ConformanceFailure) in
            let countAfter = try await user.messageCount(in: conversation)
            if let countBefore {
                try ConformanceFailure.require(
                    countAfter == countBefore + 1,
                    "three PUTs of one id took \(conversation) from \(countBefore) to \(countAfter) messages, not +1")
            }
            let newest = try await user.page(of: conversation, limit: 50).messages
            let copies = newest.filter { $0.id == message.id }
            try ConformanceFailure.require(copies.count == 1, "the newest page holds the message \(copies.count) times")
            try ConformanceFailure.require(
                newest.filter({ $0.text == message.text }).count == 1, "the newest page holds its text more than once")
            try ConformanceFailure.require(
                copies.first?.text == message.text, "the stored text changed: \(copies.first?.text ?? "")")
        }
    }

    /// A batch of new, repeated, conflicting, empty and new messages: one result per message, in order, each with
    /// the status a lone `PUT` would have had; the new ones stored in order, once each.
    func checkBatch() async {
        let first = writable.map { freshMessage("batch first", in: $0) }
        let second = writable.map { freshMessage("batch second", in: $0) }
        let last = writable.map { freshMessage("batch last", in: $0) }
        var countBefore = 0
        await check(.batchResults) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            guard let first, let second, let last else { return }
            var conflicting = first
            conflicting.text += " (other content)"
            let empty = freshMessage("", in: conversation)
            var blank = empty
            blank.text = "   "
            let batch = [first, second, first, conflicting, blank, last]
            let expected = [201, 201, 200, 409, 422, 201]
            countBefore = try await user.messageCount(in: conversation)
            let results = try await user.batch(batch, in: conversation).expect(200, "POST messages:batch")
                .decode(HTTPWire.BatchResponse.self).results
            try ConformanceFailure.require(
                results.count == batch.count, "\(batch.count) messages answered \(results.count) results")
            let statuses = results.map(\.status)
            try ConformanceFailure.require(
                statuses == expected,
                "statuses \(statuses), not \(expected) (new, new, same, other content, blank, new)")
            for (index, result) in results.enumerated() where (200...299).contains(result.status) {
                try ConformanceFailure.require(
                    result.message?.id == batch[index].id, "result \(index + 1) is not message \(index + 1)")
            }
            try ConformanceFailure.require(results[3].error?.error == "conflict", "result 4's error is not conflict")
            try ConformanceFailure.require(
                results[4].error?.error == "validation", "result 5's error is not validation")
        }
        await check(.batchStored) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            guard let first, let second, let last else { return }
            let countAfter = try await user.messageCount(in: conversation)
            try ConformanceFailure.require(
                countAfter == countBefore + 3, "the batch took \(countBefore) to \(countAfter) messages, not +3")
            let ids = [first.id, second.id, last.id]
            let newest = try await user.page(of: conversation, limit: 50).messages
            let found = newest.filter { ids.contains($0.id) }
            try ConformanceFailure.require(
                found.map(\.id) == ids, "the newest page holds \(found.map(\.id)), not \(ids) in order")
            try ConformanceFailure.require(found.first?.text == first.text, "the first message's text changed")
        }
    }

    /// Five messages stamped a millisecond apart, the last two with one stamp (their ids decide between them), sent
    /// out of that order — the third alone, then the first, then the other three as a batch, as a device that held
    /// some back would: the conversation keeps them in compose order, timestamp then id, whatever order they arrived
    /// in. Then the whole conversation, paged three at a time across the newest messages and then 100 at a time,
    /// holds every message once: as many as the backend counts, the five in compose order.
    func checkComposeOrderAndCursors() async {
        let start = Date()
        let composed = [1, 2, 3, 4, 4].enumerated().compactMap { index, milliseconds in
            writable.map {
                freshMessage("compose order \(index + 1)", in: $0, at: start + Double(milliseconds) / 1_000)
            }
        }.sorted(by: Message.composeOrder)
        await check(.composeOrder) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            try await user.put(composed[2]).expect(201, "PUT of the third compose-order message")
            try await user.put(composed[0]).expect(201, "PUT of the first compose-order message")
            let batch = [composed[1], composed[3], composed[4]]
            let results = try await user.batch(batch, in: conversation).expect(200)
                .decode(HTTPWire.BatchResponse.self).results
            try ConformanceFailure.require(
                results.map(\.status) == [201, 201, 201], "the batch of three answered \(results.map(\.status))")
            let ids = Set(composed.map(\.id))
            let order = try await user.page(of: conversation, limit: 20).messages.filter { ids.contains($0.id) }
            let ranks = order.map { message in (composed.firstIndex { $0.id == message.id } ?? -1) + 1 }
            try ConformanceFailure.require(
                order.map(\.id) == composed.map(\.id),
                "the newest page orders them \(ranks), not by timestamp, then id (by arrival?)")
        }
        await check(.cursors) { () async throws(ConformanceFailure) in
            let (user, conversation) = try writer()
            let countBefore = try await user.messageCount(in: conversation)
            let all = try await allMessages(of: conversation)
            let countAfter = try await user.messageCount(in: conversation)
            try ConformanceFailure.require(
                all.count == countAfter || all.count == countBefore,
                "paging found \(all.count) messages, the backend counts \(countAfter)")
            let ids = Set(composed.map(\.id))
            try ConformanceFailure.require(
                all.filter({ ids.contains($0.id) }).map(\.id) == composed.map(\.id),
                "paging does not hold the five compose-order messages once each, in compose order")
        }
    }
}
