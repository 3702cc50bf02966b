import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

extension Driver {
    // MARK: - Other people

    static let peerUsage =
        "usage: peer USER send ID TEXT… | peer USER delete ID REF | peer USER delivered ID | peer USER read ID "
        + "| peer USER online|offline"

    /// `peer USER send ID TEXT…`, `peer USER delivered ID`, `peer USER read ID`: another participant (or the user on
    /// another device) acts at the backend — the in-process one, or with `--server` the server, as USER; what they
    /// do reaches this app through its feed. Online in the foreground the command returns once the app applied it
    /// (the in-process backend's feed end, or with `--server` the arrival, waited for up to 5 s); otherwise it
    /// waits at the backend for the catch-up.
    func peer(_ arguments: String) async throws -> Render {
        try requireCourierBackend("peer")
        let parts = arguments.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
        if parts.count == 2, parts[1] == "online" || parts[1] == "offline" {
            return try await peerPresence(UserID(parts[0]), online: parts[1] == "online")
        }
        guard parts.count >= 3 else { throw DriverError.badArguments(Self.peerUsage) }
        if parts[1] == "delete" {
            guard parts.count == 4 else { throw DriverError.badArguments(Self.peerUsage) }
            return try await peerDelete(UserID(parts[0]), ConversationID(parts[2]), ref: parts[3])
        }
        let user = UserID(parts[0])
        let conversationID = ConversationID(parts[2])
        let kind: Receipt.Kind?
        switch (parts[1], parts.count) {
        case ("send", 4): kind = nil
        case ("delivered", 3): kind = .delivered
        case ("read", 3): kind = .read
        default: throw DriverError.badArguments(Self.peerUsage)
        }
        let applied = app.client.syncEngine?.appliedEvents ?? 0
        let line: String
        if let server = courierServer?.baseURL {
            line = try await remotePeer(user, kind, conversationID, text: parts.count == 4 ? parts[3] : "", at: server)
            await waitForArrival(after: applied)
        } else {
            line = try localPeer(user, kind, conversationID, text: parts.count == 4 ? parts[3] : "")
        }
        return { Output(lines: [line]) }
    }

    /// `peer USER delete ID REF`: USER (the sender: another participant, or `me` on another device) deletes one of
    /// their messages of conversation ID for everyone, at the backend in use. REF is `@` and an id prefix, or a
    /// position among USER's messages there, newest first (`1`: the newest). It reaches this app through its feed,
    /// waited for as a peer's send is.
    private func peerDelete(_ user: UserID, _ conversationID: ConversationID, ref: String) async throws -> Render {
        let applied = app.client.syncEngine?.appliedEvents ?? 0
        do {
            let id: MessageID
            if let server = courierServer?.baseURL {
                let peer = try peer(user, at: server)
                let held = try await peer.messages(in: conversationID, before: nil, limit: 200).messages
                let theirs = held.filter { $0.senderID == user }.reversed().map(\.id)
                id = try resolve(ref, among: theirs, list: "\(user)'s messages")
                try await peer.deleteMessage(id, in: conversationID)
                await waitForArrival(after: applied)
            } else {
                let held = world.backend.messages(in: conversationID).filter { $0.senderID == user }
                id = try resolve(ref, among: held.reversed().map(\.id), list: "\(user)'s messages")
                try world.backend.deleteMessage(id, in: conversationID, by: user)
            }
            return { Output(lines: ["\(user) deleted \(MessageReference.label(id)) in \(conversationID)"]) }
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError.failed("\(error)")
        }
    }

    /// `peer USER online|offline`: USER's device connects or disconnects, at the backend in use. A chat with them
    /// shows it within its 30 s refresh.
    private func peerPresence(_ user: UserID, online: Bool) async throws -> Render {
        guard user != app.currentUser else {
            throw DriverError.failed("peer \(user) online|offline is for another user, not you")
        }
        do {
            if let server = courierServer?.baseURL {
                try await peer(user, at: server).setPresence(online: online)
            } else {
                try world.backend.setPresence(of: user, online: online, at: world.clock.now)
            }
        } catch {
            throw DriverError.failed("\(error)")
        }
        return { Output(lines: ["\(user) is \(online ? "online" : "offline")"]) }
    }

    private func localPeer(_ user: UserID, _ kind: Receipt.Kind?, _ conversationID: ConversationID, text: String)
        throws -> String
    {
        guard let conversation = world.backend.conversation(conversationID) else {
            throw DriverError.failed("no conversation \(conversationID)")
        }
        guard conversation.participantIDs.contains(user) else {
            throw DriverError.failed("\(user) is not a participant of \(conversationID)")
        }
        do {
            guard let kind else {
                // Stamped after the conversation's newest message, as the peer's device stamps what it composes
                // (docs/design.md §2.3): two messages sent within one tick of the clock keep the order they were sent
                // in.
                let stamp = Message.composeStamp(now: world.clock.now, after: conversation.lastMessage?.timestamp)
                let stored = try world.backend.receive(
                    Message(
                        id: app.ids.next(), conversationID: conversationID, senderID: user, text: text,
                        timestamp: stamp, status: .sent))
                return "\(user) sent \(MessageReference.label(stored.id)) in \(conversationID)"
            }
            guard let newest = world.backend.messages(in: conversationID).last else {
                throw DriverError.failed("\(conversationID) holds no message to mark \(kind.rawValue)")
            }
            try world.backend.markReceipt(
                Receipt(conversationID: conversationID, userID: user, kind: kind, upTo: newest.cursor))
            return "\(user) \(kind.rawValue) \(conversationID) up to \(MessageReference.label(newest.id))"
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError.failed("\(error)")
        }
    }

    /// The same at a `courier-server`, signed in as `user` (the server refuses what `user` may not do).
    private func remotePeer(
        _ user: UserID, _ kind: Receipt.Kind?, _ conversationID: ConversationID, text: String, at server: URL
    ) async throws -> String {
        let peer = try peer(user, at: server)
        do {
            guard let kind else {
                // Stamped after the conversation's newest message, as at the in-process backend.
                let newest = try await peer.messages(in: conversationID, before: nil, limit: 1).messages.last
                let stored = try await peer.send(
                    Message(
                        id: app.ids.next(), conversationID: conversationID, senderID: user, text: text,
                        timestamp: Message.composeStamp(now: world.clock.now, after: newest?.timestamp),
                        status: .sending))
                return "\(user) sent \(MessageReference.label(stored.id)) in \(conversationID)"
            }
            guard let newest = try await peer.messages(in: conversationID, before: nil, limit: 1).messages.last else {
                throw DriverError.failed("\(conversationID) holds no message to mark \(kind.rawValue)")
            }
            try await peer.mark(Receipt(conversationID: conversationID, userID: user, kind: kind, upTo: newest.cursor))
            return "\(user) \(kind.rawValue) \(conversationID) up to \(MessageReference.label(newest.id))"
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError.failed("\(error)")
        }
    }

    /// With a real server, waits (up to 5 s of real time, or 30 s of virtual time) until the sync engine applied an
    /// event after `applied`, when it listens; offline or in the background the event waits at the server for the
    /// catch-up.
    private func waitForArrival(after applied: Int) async {
        guard let engine = app.client.syncEngine, engine.isRunning else { return }
        if let clock = world.manualClock {
            // Under virtual time the engine asks the server again after its pause on the clock: move the clock.
            _ = await clock.run(until: { engine.appliedEvents != applied || !engine.isRunning }, limit: .seconds(30))
            return
        }
        let deadline = Date().addingTimeInterval(5)
        while engine.appliedEvents == applied, engine.isRunning, Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// `events trim`: the backend (or the server) forgets every event it keeps.
    func events(_ arguments: String) async throws -> Render {
        guard arguments == "trim" else { throw DriverError.badArguments("usage: events trim") }
        do {
            try requireCourierBackend("events trim")
            if let remote = courierServer {
                try await remote.trimEvents()
            } else {
                try world.backend.trimFeeds()
            }
        } catch {
            throw DriverError.failed("\(error)")
        }
        return { Output(lines: ["events: trimmed"]) }
    }
}
