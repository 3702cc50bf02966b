import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import Foundation

extension Simulation {
    // MARK: - Other people and the user's other device

    /// The other participant of a simulation conversation sends a message: it reaches the app through its feed.
    func peerSend(_ world: World) -> String {
        let conversation = conversations[pick(conversations.count)]
        guard let peer = peer(in: conversation, of: world) else { return "peer send: \(conversation) has no peer" }
        return inject(from: peer, text: "p\(seed)-\(peerCount + 1)", in: conversation, of: world)
    }

    /// The other participant of a simulation conversation marks it delivered or read up to its newest message.
    func peerReceipt(_ world: World) -> String {
        let conversation = conversations[pick(conversations.count)]
        let kind: Receipt.Kind = pick(2) == 0 ? .delivered : .read
        guard let peer = peer(in: conversation, of: world) else { return "peer \(kind.rawValue): no peer" }
        return mark(kind, by: peer, in: conversation, of: world)
    }

    /// The user on another device: sends a message, or reads a conversation up to its newest message.
    func otherDevice(_ world: World) -> String {
        let conversation = conversations[pick(conversations.count)]
        if pick(3) == 0 { return mark(.read, by: AppContainer.demoUser, in: conversation, of: world) }
        return inject(from: AppContainer.demoUser, text: "d\(seed)-\(peerCount + 1)", in: conversation, of: world)
    }

    /// The app goes to the background, or comes back: the live connection closes, or catches up and listens again.
    func switchLifecycle(_ app: AppContainer) -> String {
        if app.isInForeground {
            app.enterBackground()
            return "background"
        }
        app.enterForeground()
        return "foreground"
    }

    // MARK: - Helpers

    private func peer(in conversation: ConversationID, of world: World) -> UserID? {
        world.backend.conversation(conversation)?.participantIDs.first { $0 != AppContainer.demoUser }
    }

    /// Stores a message from `sender` at the backend, as if it arrived there from their device. Its id comes from
    /// the app's id space, so a replay draws the same ids. Like a real client's outbox, the device stamps its
    /// messages with strictly increasing compose times: two sent within one tick of the clock (which stands still
    /// while the app is offline) keep their order, which is compose time, then id.
    private func inject(from sender: UserID, text: String, in conversation: ConversationID, of world: World)
        -> String
    {
        guard let app else { return "inject: no app" }
        let timestamp = max(clock.now, peerClocks[sender].map { $0.addingTimeInterval(0.001) } ?? clock.now)
        let message = Message(
            id: app.ids.next(), conversationID: conversation, senderID: sender, text: text, timestamp: timestamp,
            status: .sent)
        do {
            try world.backend.receive(message)
        } catch {
            return "\(sender) send in \(conversation) refused: \(error)"
        }
        peerCount += 1
        peerClocks[sender] = timestamp
        outcome.peerActions += 1
        return "\(sender) sends \(message.id) in \(conversation)"
    }

    private func mark(_ kind: Receipt.Kind, by user: UserID, in conversation: ConversationID, of world: World)
        -> String
    {
        guard let newest = world.backend.messages(in: conversation).last else {
            return "\(user) \(kind.rawValue) \(conversation): no message"
        }
        do {
            try world.backend.markReceipt(
                Receipt(conversationID: conversation, userID: user, kind: kind, upTo: newest.cursor))
        } catch {
            return "\(user) \(kind.rawValue) \(conversation) refused: \(error)"
        }
        outcome.peerActions += 1
        return "\(user) \(kind.rawValue) \(conversation) up to \(newest.id)"
    }
}
