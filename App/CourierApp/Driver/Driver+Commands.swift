import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

extension Driver {
    static let help = [
        "help                                  list the commands",
        "conversations | conversations more    first page of the conversation list / the next page",
        "conversations delete ID               ask to delete conversation ID (choose delete | choose cancel)",
        "open ID                               open a chat (newest 50 messages)",
        "more                                  load 50 older messages of the open chat",
        "send TEXT…                            send TEXT in the open chat",
        "send-image URL THUMB|- [CAPTION…]     send an image (uploaded elsewhere; - for no thumbnail) in the open chat",
        "retry REF | delete REF                Retry / Delete a failed message of the open chat",
        "tap REF                               tap a failed message (Retry, Delete, Cancel) or a queued one",
        "                                      (its action sheet: Cancel, Info, Dismiss)",
        "choose ACTION                         press a button of the open alert or sheet (choose retry, choose ok)",
        "banner review | banner send-all       the banner's own actions",
        "network online|offline                connectivity",
        "network profile wifi|3g|flaky         latency and failure profile",
        "network fail-rate P                   fraction P (0…1) of backend requests fail",
        "network server down|hang|up           the backend refuses every connection / never answers / answers again",
        "toast yes|review|dismiss              answer the connectivity toast",
        "policy manual|auto                    send policy for queued messages",
        "queue | queue close                   show the Offline Queue / close it",
        "queue send REF|all | queue edit REF TEXT… | queue delete REF",
        "profile name TEXT…                    change the display name (offline write queue)",
        "auth expire | auth renew              expire / renew the sign-in",
        "peer USER send ID TEXT…               USER sends TEXT in conversation ID from their own device",
        "peer USER delete ID REF               USER deletes one of their messages of ID for everyone",
        "peer USER delivered|read ID           USER's device received / USER read conversation ID so far",
        "events trim                           the backend forgets the events it keeps (devices behind start over)",
        "advance DURATION                      move the clock on (500ms, 10s, 5m, 2h, 8d)",
        "background | foreground               app lifecycle",
        "restart                               kill and relaunch the app from the data directory",
        "state                                 print the state document as JSON",
        "server ID [N]                         the last N (20) messages the backend stores for ID",
        "expect PATH OP VALUE                  assert on the state document (==, !=, <, <=, >, >=, contains)",
        "quit                                  leave",
    ]

    // swiftlint:disable:next cyclomatic_complexity
    func perform(_ word: String, _ arguments: String) async throws -> Render {
        switch word {
        case "help":
            try noArguments(word, arguments)
            return { Output(lines: Self.help) }
        case "conversations": return try await conversations(arguments)
        case "open": return try await open(arguments)
        case "more": return try more(arguments)
        case "send": return try send(arguments)
        case "send-image": return try sendImage(arguments)
        case "retry", "delete": return try failedMessageAction(word, arguments)
        case "tap": return try tap(arguments)
        case "choose": return try choose(arguments)
        case "banner": return try banner(arguments)
        case "network": return try network(arguments)
        case "toast": return try toast(arguments)
        case "policy": return try policy(arguments)
        case "queue": return try await queue(arguments)
        case "profile": return try await profile(arguments)
        case "auth": return try await auth(arguments)
        case "peer": return try await peer(arguments)
        case "events": return try await events(arguments)
        case "advance": return try await advance(arguments)
        case "background", "foreground": return try lifecycle(word, arguments)
        case "restart":
            try noArguments(word, arguments)
            try restart()
            return { Output(lines: ["restarted: \(self.app.client.outbox.pending.count) pending message(s) reloaded"]) }
        case "state":
            try noArguments(word, arguments)
            return {
                let document = StateDocument.build(app: self.app)
                return Output(lines: [document.text], json: document)
            }
        case "server": return try await server(arguments)
        case "expect": return try await expect(arguments)
        case "quit", "exit":
            try noArguments(word, arguments)
            quitRequested = true
            return { Output(lines: ["bye"]) }
        default: throw DriverError.unknownCommand(word)
        }
    }

    // MARK: - Conversations and chat

    private func conversations(_ arguments: String) async throws -> Render {
        let list = app.conversations.list
        switch arguments {
        case "": list.load()
        case "more": list.loadMore()
        case let other where other.hasPrefix("delete "):
            return try await deleteConversation(String(other.dropFirst("delete ".count)))
        default: throw DriverError.badArguments("usage: conversations [more | delete ID]")
        }
        return { self.conversationsOutput() }
    }

    private func open(_ arguments: String) async throws -> Render {
        guard !arguments.isEmpty, !arguments.contains(" ") else { throw DriverError.badArguments("usage: open ID") }
        guard app.openChat(ConversationID(arguments)) != nil else {
            throw DriverError.failed("no conversation \(arguments)")
        }
        return { self.chatOutput(limit: 50) }
    }

    private func more(_ arguments: String) throws -> Render {
        try noArguments("more", arguments)
        let chat = try openChat()
        let before = chat.state.messages.count
        chat.loadOlderMessages()
        return {
            let count = chat.state.messages.count
            let end = chat.state.showsBeginning ? ", \(chat.state.beginningText)" : ""
            return Output(lines: ["loaded \(count - before) older message(s); \(count) in all\(end)"])
        }
    }

    private func send(_ arguments: String) throws -> Render {
        let chat = try openChat()
        let id: MessageID
        do {
            id = try chat.send(text: arguments)
        } catch {
            throw DriverError.failed("\(error)")
        }
        return {
            // The new message is among the newest rows: search from the end, not the whole chat.
            let row = chat.state.messages.last { $0.id == id }
            return Output(lines: row.map { [Self.line(for: $0)] } ?? [])
        }
    }

    private func failedMessageAction(_ word: String, _ arguments: String) throws -> Render {
        let chat = try openChat()
        let id = try resolve(arguments, among: pendingIDs(of: chat, [.failed]), list: "failed messages of this chat")
        do {
            if word == "retry" { try chat.retry(messageID: id) } else { try chat.delete(messageID: id) }
        } catch {
            throw DriverError.failed("\(error)")
        }
        return {
            let row = chat.state.messages.first { $0.id == id }
            return Output(lines: [row.map(Self.line(for:)) ?? "\(word): \(id.rawValue) deleted"])
        }
    }

    private func tap(_ arguments: String) throws -> Render {
        let chat = try openChat()
        let tappable = pendingIDs(of: chat, [.failed, .queued])
        let id = try resolve(arguments, among: tappable, list: "failed and queued messages of this chat")
        do { try chat.tapMessage(messageID: id) } catch { throw DriverError.failed("\(error)") }
        // The alert itself prints as it opens (`alert: …`).
        return { Output(lines: []) }
    }

    /// The open chat's messages with one of `statuses`, in compose order, as the outbox holds them: the chat shows
    /// a window of its newest rows, and a REF names a failed or queued message above it just as well.
    private func pendingIDs(of chat: ChatViewModel, _ statuses: Set<MessageStatus>) -> [MessageID] {
        let conversation = chat.state.conversationID
        return app.client.outbox.pending
            .filter { $0.conversationID == conversation && statuses.contains($0.status) }
            .map(\.id)
    }

    private func choose(_ arguments: String) throws -> Render {
        guard !arguments.isEmpty else { throw DriverError.badArguments("usage: choose ACTION") }
        if app.conversations.list.state.alert != nil { return try chooseListAction(arguments) }
        guard let chat = app.chat, let alert = chat.state.alert else {
            throw DriverError.failed("no alert or action sheet is open")
        }
        do { try chat.chooseAlertAction(arguments) } catch { throw DriverError.failed("\(error)") }
        let label = alert.actions.first { $0.lowercased() == arguments.lowercased() } ?? arguments
        return {
            let row = chat.state.messages.first { $0.id == alert.messageID }
            return Output(lines: ["chose: \(label)"] + (row.map { [Self.line(for: $0)] } ?? []))
        }
    }

    private func banner(_ arguments: String) throws -> Render {
        let banner = app.messaging.banner
        switch arguments {
        case "send-all":
            guard banner.state.banner.showsSendAll || banner.state.banner.queuedCount > 0 else {
                throw DriverError.failed("nothing is queued to send")
            }
            // The button's words are the banner's, as the screen shows them.
            let label = banner.state.banner.sendAllLabel
            switch banner.sendAll() {
            case .sending(let count): return { Output(lines: ["\(label): \(count) message(s)"]) }
            case .sendsWhenOnline:
                return { Output(lines: ["\(label): \(banner.state.banner.text)"]) }
            case .nothingWaiting: throw DriverError.failed("nothing is queued to send")
            }
        case "review":
            banner.review()
            return { self.queueOutput() }
        default: throw DriverError.badArguments("usage: banner review|send-all")
        }
    }

    func openChat() throws -> ChatViewModel {
        guard let chat = app.chat else { throw DriverError.failed("no chat is open (use: open ID)") }
        return chat
    }

    // MARK: - Helpers

    func noArguments(_ word: String, _ arguments: String) throws {
        guard arguments.isEmpty else { throw DriverError.badArguments("\(word) takes no arguments") }
    }

    /// A REF (`MessageReference`): a 1-based position in `ids`, or `@` and a unique id prefix.
    func resolve(_ ref: String, among ids: [MessageID], list: String) throws -> MessageID {
        try MessageReference.parse(ref).resolve(among: ids, list: list)
    }
}

extension Driver.Output {
    init(lines: [String]) {
        self.init(lines: lines, json: nil)
    }
}
