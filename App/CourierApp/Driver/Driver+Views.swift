import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

extension Driver {
    // MARK: - Queue

    func queue(_ arguments: String) async throws -> Render {
        let queue = app.messaging.queue
        let parts = arguments.split(separator: " ", maxSplits: 2).map(String.init)
        let ids = queue.state.rows.map(\.id)
        do {
            switch (parts.first, parts.count) {
            case (nil, _): queue.present()
            case ("close", 1):
                queue.close()
                return { Output(lines: ["closed: \(queue.state.title)"]) }
            case ("send", 2) where parts[1] == "all": queue.sendAll()
            case ("send", 2): try queue.sendNow(messageID: try resolve(parts[1], among: ids, list: "queued messages"))
            case ("edit", 3):
                let id = try resolve(parts[1], among: ids, list: "queued messages")
                let shown = try edit(id, text: parts[2], in: queue)
                return { Output(lines: shown + self.queueOutput().lines) }
            case ("delete", 2):
                let shown = try confirmDelete(try resolve(parts[1], among: ids, list: "queued messages"), in: queue)
                return { Output(lines: shown + self.queueOutput().lines) }
            default:
                throw DriverError.badArguments(
                    "usage: queue | queue close | queue send REF|all | queue edit REF TEXT… | queue delete REF")
            }
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError.failed("\(error)")
        }
        return { self.queueOutput() }
    }

    /// Edit on a row, through its sheet: opens it, types `text`, presses Save — printing the sheet as it showed
    /// (`sheet: TITLE — TEXT [CANCEL | SAVE]`) and the button (`chose: SAVE`). A refused save cancels the sheet.
    private func edit(_ id: MessageID, text: String, in queue: OfflineQueueViewModel) throws -> [String] {
        try queue.beginEdit(messageID: id)
        do {
            try queue.updateEditText(text)
            guard let sheet = queue.state.editSheet else { return [] }
            let lines = ["sheet: \(sheet.title) — \(sheet.text) [\(sheet.actions.joined(separator: " | "))]"]
            try queue.saveEdit()
            let save = sheet.buttons.firstIndex(of: .save).map { sheet.actions[$0] } ?? ""
            return lines + ["chose: \(save)"]
        } catch {
            queue.cancelEdit()
            throw error
        }
    }

    /// Delete on a row, through its confirmation: opens it and presses Delete — printing it as it showed
    /// (`confirm: TITLE — MESSAGE [DELETE | CANCEL]`) and the button (`chose: DELETE`).
    private func confirmDelete(_ id: MessageID, in queue: OfflineQueueViewModel) throws -> [String] {
        try queue.confirmDelete(messageID: id)
        guard let confirmation = queue.state.deleteConfirmation else { return [] }
        let line =
            "confirm: \(confirmation.title) — \(confirmation.message) "
            + "[\(confirmation.actions.joined(separator: " | "))]"
        do {
            try queue.chooseAlertAction(.delete)
        } catch {
            try? queue.chooseAlertAction(.cancel)
            throw error
        }
        let delete = confirmation.buttons.firstIndex(of: .delete).map { confirmation.actions[$0] } ?? ""
        return [line, "chose: \(delete)"]
    }

    func queueOutput() -> Output {
        let state = app.messaging.queue.state
        var lines = [state.title]
        if let empty = state.emptyState {
            lines.append("  \(empty.title) — \(empty.message)")
        }
        for (index, row) in state.rows.enumerated() {
            lines.append(
                "  \(index + 1). [\(row.badge)] \(row.conversationName) · \(row.timeText) · \(row.preview)  "
                    + "(\(MessageReference.label(row.id)))")
        }
        if !state.rows.isEmpty {
            // The buttons each row and the screen offer, in the screen's words.
            let row = state.rowActions
            lines.append("  [\(row.sendNow) | \(row.edit) | \(row.delete)] · [\(state.sendAllLabel)]")
        }
        if app.messaging.banner.state.banner.visible { lines.append(app.messaging.banner.state.banner.text) }
        return Output(lines: lines)
    }

    // MARK: - Chat

    func chatOutput(limit: Int) -> Output {
        guard let state = app.chat?.state else { return Output(lines: ["no chat open"]) }
        var lines = [
            "\(state.title) (\(state.conversationID.rawValue)) — \(state.messages.count) message(s)"
                + (state.hasMore ? ", older ones with 'more'" : "")
                + (state.showsBeginning && state.messages.count <= limit ? " · \(state.beginningText)" : "")
        ]
        lines += state.messages.suffix(limit).map(Self.line(for:))
        if let error = state.error { lines.append("error: \(error)") }
        if state.banner.visible { lines.append(state.banner.text) }
        return Output(lines: lines)
    }

    /// "  TIME SENDER: TEXT  [LABEL]" (no label part when the label is empty), written straight into one
    /// allocation: a chat prints a page of these per command.
    nonisolated static func line(for row: MessageRow) -> String {
        let sender = row.senderID.rawValue
        let label = row.statusLabel
        let text = row.imageURL.map { imageText($0, caption: row.text) } ?? row.text
        let count =
            5 + row.timeText.utf8.count + sender.utf8.count + text.utf8.count
            + (label.isEmpty ? 0 : 5 + label.utf8.count)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            copy("  ", into: buffer, at: &offset)
            copy(row.timeText, into: buffer, at: &offset)
            copy(" ", into: buffer, at: &offset)
            copy(sender, into: buffer, at: &offset)
            copy(": ", into: buffer, at: &offset)
            copy(text, into: buffer, at: &offset)
            if !label.isEmpty {
                copy("  [", into: buffer, at: &offset)
                copy(label, into: buffer, at: &offset)
                copy("]", into: buffer, at: &offset)
            }
            return offset
        }
    }

    /// An image as a line shows it: `[image THUMBNAIL]`, then the caption when there is one.
    nonisolated static func imageText(_ url: String, caption: String) -> String {
        caption.isEmpty ? "[image \(url)]" : "[image \(url)] \(caption)"
    }

    private nonisolated static func copy(
        _ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: inout Int
    ) {
        let start = offset
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            UnsafeMutableBufferPointer(rebasing: buffer[start..<start + bytes.count]).initialize(fromContentsOf: bytes)
        }
        if let copied {
            offset += copied
            return
        }
        for byte in text.utf8 {
            buffer[offset] = byte
            offset += 1
        }
    }

    // MARK: - Conversations

    func conversationsOutput() -> Output {
        let state = app.conversations.list.state
        var lines = state.items.enumerated().map { index, item in
            let unread = item.unreadCount > 0 ? " (\(item.unreadCount) unread)" : ""
            let preview = item.previewImageURL.map { Self.imageText($0, caption: item.preview) } ?? item.preview
            return "  \(index + 1). \(item.title) [\(item.id.rawValue)] · \(item.timestamp)\(unread) · \(preview)"
        }
        lines.append("\(state.items.count) conversation(s)\(state.hasMore ? ", more with 'conversations more'" : "")")
        if let error = state.error { lines.append("error: \(error)") }
        return Output(lines: lines)
    }

    // MARK: - Server and expect

    func server(_ arguments: String) async throws -> Render {
        let parts = arguments.split(separator: " ").map(String.init)
        guard (1...2).contains(parts.count) else { throw DriverError.badArguments("usage: server ID [N]") }
        let id = ConversationID(parts[0])
        var count = 20
        if parts.count == 2 {
            guard let n = Int(parts[1]), n > 0 else { throw DriverError.badArguments("N must be a positive number") }
            count = n
        }
        let (total, messages) = try await serverMessages(in: id, count: count)
        let lines =
            ["server \(id.rawValue): \(total) message(s)"]
            + messages.map { message in
                let text = message.media.map { Self.imageText($0.url, caption: message.text) } ?? message.text
                return "  \(StateDocument.iso8601(message.timestamp)) \(message.senderID.rawValue): \(text)"
            }
        let json = JSONValue.object([
            ("conversationId", .string(id.rawValue)), ("count", .int(total)),
            (
                "messages",
                .array(
                    messages.map { message in
                        .object([
                            ("id", .string(message.id.rawValue)), ("senderId", .string(message.senderID.rawValue)),
                            ("text", .string(message.text)),
                            ("timestamp", .string(StateDocument.iso8601(message.timestamp))),
                            ("image", .optional(message.media?.url)),
                        ])
                    })
            ),
        ])
        return { Output(lines: lines, json: json) }
    }

    func expect(_ arguments: String) async throws -> Render {
        let expectation = try Expectation.parse(arguments)
        await waitForWork()
        if let failure = expectation.check(StateDocument.build(app: app)) {
            throw DriverError.expectationFailed(failure)
        }
        return { Output(lines: ["ok: \(arguments)"]) }
    }
}

extension Driver {
    /// How many messages the server holds for `id` and its last `count`, from the `courier-server` when the driver
    /// talks to one (read directly, past the device's simulated network), else from the in-process backend.
    private func serverMessages(in id: ConversationID, count: Int) async throws -> (Int, [Message]) {
        try requireCourierBackend("server")
        guard let remote = courierServer else {
            guard world.backend.conversation(id) != nil else { throw DriverError.failed("no conversation \(id)") }
            return (world.backend.messageCount(in: id), Array(world.backend.messages(in: id).suffix(count)))
        }
        do {
            let info = try await remote.conversationInfo(id)
            var messages: [Message] = []
            var cursor: MessageCursor?
            while messages.count < count {
                let page = try await remote.messages(
                    in: id, before: cursor, limit: min(count - messages.count, ChatRouterLimits.maxPage))
                messages = page.messages + messages
                guard page.hasMore, let first = page.messages.first else { break }
                cursor = first.cursor
            }
            return (info.messageCount, messages)
        } catch DeliveryError.notFound {
            throw DriverError.failed("no conversation \(id)")
        } catch {
            throw DriverError.failed("the server did not answer: \(error)")
        }
    }
}

/// The largest page the REST contract serves.
private enum ChatRouterLimits {
    static let maxPage = 1_000
}
