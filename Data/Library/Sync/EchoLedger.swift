import CourierDomain
import CourierStore

/// This device's own messages between the send's answer and the feed's echo, as the sync engine keeps them: which
/// ones screens heard of from the outbox in this launch (so their echo is not announced again), which still wait for
/// their echo and where they stand (a receipt made before the echo came does not cover them), and which were
/// pending when the engine was made (an earlier launch may have sent them, and their echo may be behind the cursor
/// already, so their answer says nothing about where their echo stands). A value: the engine holds one.
struct EchoLedger {
    private let pendingAtLaunch: Set<MessageID>
    private var announced: Set<MessageID> = []
    private var awaiting: [MessageID: (conversation: ConversationID, cursor: MessageCursor)] = [:]

    /// A ledger for an engine made while `pendingAtLaunch` were pending in the outbox.
    init(pendingAtLaunch: Set<MessageID>) {
        self.pendingAtLaunch = pendingAtLaunch
    }

    /// The outbox said `message` reached the backend: screens heard of it, and unless it was pending at launch it
    /// waits for its echo where it stands.
    mutating func answered(_ message: Message) {
        announced.insert(message.id)
        if !pendingAtLaunch.contains(message.id) {
            awaiting[message.id] = (message.conversationID, message.cursor)
        }
    }

    /// Whether screens heard of `id` from the outbox in this launch, forgetting that they did: its echo is not news
    /// to them; an echo no announcement came before (sent by an earlier launch) is.
    mutating func takeAnnouncement(of id: MessageID) -> Bool {
        announced.remove(id) != nil
    }

    /// The echo of `id` came, or it will not come (deleted): nothing waits for it any more.
    mutating func echoCame(_ id: MessageID) {
        awaiting[id] = nil
    }

    /// A start-over: the echoes before the snapshot's position will not come.
    mutating func snapshotTaken() {
        awaiting = [:]
    }

    /// Whether the echo of `id` is still awaited.
    func awaitsEcho(_ id: MessageID) -> Bool { awaiting[id] != nil }

    /// Whether a message of `conversation` whose echo is still awaited stands where `matches` says.
    func awaitsEcho(in conversation: ConversationID, where matches: (MessageCursor) -> Bool) -> Bool {
        awaiting.values.contains { $0.conversation == conversation && matches($0.cursor) }
    }
}
