import CourierData
import CourierDomain
import CourierPresentation
import Foundation

extension Driver {
    // MARK: - Other people

    static let peerUsage = "usage: peer USER send ID TEXT… | peer USER delivered ID | peer USER read ID"

    /// `peer USER send ID TEXT…`, `peer USER delivered ID`, `peer USER read ID`: another participant (or the user on
    /// another device) acts at the backend; what they do reaches this app through its feed, and the command returns
    /// once the app shows it (online, in the foreground) or at once (it then waits for the catch-up).
    func peer(_ arguments: String) throws -> Render {
        let parts = arguments.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 3 else { throw DriverError.badArguments(Self.peerUsage) }
        let user = UserID(parts[0])
        let conversationID = ConversationID(parts[2])
        guard let conversation = world.backend.conversation(conversationID) else {
            throw DriverError.failed("no conversation \(conversationID)")
        }
        guard conversation.participantIDs.contains(user) else {
            throw DriverError.failed("\(user) is not a participant of \(conversationID)")
        }
        switch (parts[1], parts.count) {
        case ("send", 4):
            // Stamped after the conversation's newest message, as a server stamps what it receives: two messages
            // sent within one tick of the clock keep the order they were sent in.
            let newest = conversation.lastMessage?.timestamp.addingTimeInterval(0.001) ?? .distantPast
            let message = Message(
                id: app.ids.next(), conversationID: conversationID, senderID: user, text: parts[3],
                timestamp: max(world.clock.now, newest), status: .sent)
            let stored: Message
            do {
                stored = try world.backend.receive(message)
            } catch {
                throw DriverError.failed("\(error)")
            }
            return { Output(lines: ["\(user) sent \(MessageReference.label(stored.id)) in \(conversationID)"]) }
        case ("delivered", 3), ("read", 3):
            let kind: Receipt.Kind = parts[1] == "read" ? .read : .delivered
            guard let newest = world.backend.messages(in: conversationID).last else {
                throw DriverError.failed("\(conversationID) holds no message to mark \(kind.rawValue)")
            }
            do {
                try world.backend.markReceipt(
                    Receipt(conversationID: conversationID, userID: user, kind: kind, upTo: newest.cursor))
            } catch {
                throw DriverError.failed("\(error)")
            }
            return { Output(lines: ["\(user) \(kind.rawValue) \(conversationID) up to \(MessageReference.label(newest.id))"]) }
        default:
            throw DriverError.badArguments(Self.peerUsage)
        }
    }

    /// `events trim`: the backend forgets every event it keeps.
    func events(_ arguments: String) throws -> Render {
        guard arguments == "trim" else { throw DriverError.badArguments("usage: events trim") }
        do {
            try world.backend.trimFeeds()
        } catch {
            throw DriverError.failed("\(error)")
        }
        return { Output(lines: ["events: trimmed"]) }
    }
}
