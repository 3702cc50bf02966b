import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import Foundation

/// The ledger of what the simulated user was promised, and the checks of docs/design.md §2 against it.
///
/// - Never lost: every message whose compose returned (and that the user did not delete) is in the outbox store
///   or at the backend; in the store it carries the last text an edit acknowledged.
/// - Never twice: the backend stores each id once.
/// - In order: each conversation at the backend is in (timestamp, id) order, and the user's own messages stand in
///   the order they were composed.
/// - Statuses only move as `MessageStatus.canTransition` allows, event after event, within one app life.
/// - The banner counts exactly the queued and failed messages of the store.
@MainActor
final class SimulationInvariants {
    private struct Promise {
        let conversation: ConversationID
        /// The texts the store may hold: one, unless an edit was cut off by a power cut (then either).
        var texts: Set<String>
        let order: Int
    }

    private(set) var violations: [String] = []
    private var promises: [MessageID: Promise] = [:]
    /// Ids whose deletion was cut off by a power cut: they may be gone.
    private var mayBeDeleted: Set<MessageID> = []
    private var statuses: [MessageID: MessageStatus] = [:]
    private var composeOrder: [MessageID: Int] = [:]
    private let since: Date

    /// Checks messages stored at or after `since` (the demo data before it is not the simulation's).
    init(since: Date) { self.since = since }

    // MARK: - What the user did

    func composed(_ message: Message) {
        let order = composeOrder.count
        composeOrder[message.id] = order
        promises[message.id] = Promise(conversation: message.conversationID, texts: [message.text], order: order)
    }

    /// An edit returned (`acknowledged`) or was cut off by a power cut (it may or may not have happened).
    func edited(_ id: MessageID, to text: String, acknowledged: Bool) {
        guard promises[id] != nil else { return }
        if acknowledged { promises[id]?.texts = [text] } else { promises[id]?.texts.insert(text) }
    }

    /// A delete returned (`acknowledged`) or was cut off by a power cut.
    func deleted(_ id: MessageID, acknowledged: Bool) {
        if acknowledged { promises[id] = nil } else { mayBeDeleted.insert(id) }
    }

    // MARK: - What the app did

    /// A new app life begins with these messages in the store.
    func appStarted(with pending: [Message]) {
        statuses = Dictionary(pending.map { ($0.id, $0.status) }, uniquingKeysWith: { $1 })
    }

    /// Checks one outbox event against the status rules.
    func observe(_ event: OutboxEvent) {
        guard case .changed(let message) = event else {
            if case .deleted(let id) = event { statuses[id] = nil }
            return
        }
        if let previous = statuses[message.id] {
            if !previous.canTransition(to: message.status) {
                fail("status of \(message.id) moved backwards: \(previous.rawValue) -> \(message.status.rawValue)")
            }
        } else if message.status != .queued && message.status != .sending {
            fail("\(message.id) first appeared as \(message.status.rawValue)")
        }
        statuses[message.id] = message.status
    }

    // MARK: - Checks

    /// Checks the state after a step.
    func check(
        store: FileOutboxStore, backend: InMemoryChatBackend, bannerCount: Int, conversations: [ConversationID]
    ) {
        for (id, promise) in promises {
            if let stored = store.message(id) {
                if !promise.texts.contains(stored.text) {
                    fail("\(id) holds \"\(stored.text)\" in the store; acknowledged \(promise.texts.sorted())")
                }
            } else if backend.message(id) == nil, !mayBeDeleted.contains(id) {
                fail("acknowledged message \(id) in \(promise.conversation) is neither in the store nor at the backend")
            }
        }
        for conversation in conversations { checkOrder(in: conversation, backend: backend) }
        let waiting = store.all().filter { $0.status == .queued || $0.status == .failed }.count
        if bannerCount != waiting {
            fail("the banner counts \(bannerCount) waiting messages; the store holds \(waiting)")
        }
    }

    private func checkOrder(in conversation: ConversationID, backend: InMemoryChatBackend) {
        let messages = backend.messages(in: conversation)
        var start = messages.count
        while start > 0, messages[start - 1].timestamp >= since { start -= 1 }
        for violation in Self.orderViolations(in: messages[start...], of: conversation, composeOrder: composeOrder) {
            fail(violation)
        }
    }

    /// What breaks compose order in `messages`, a conversation as the backend holds it: an id stored twice, a
    /// message standing after one that comes later in compose order (`Message.composeOrder`: timestamp, then id), and
    /// one of the user's own messages (those in `composeOrder`) standing ahead of one they composed before it — a
    /// stamp that went back, as a clock set back would give it, or a batch sent in reverse.
    nonisolated static func orderViolations(
        in messages: ArraySlice<Message>, of conversation: ConversationID, composeOrder: [MessageID: Int]
    ) -> [String] {
        var violations: [String] = []
        var seen: Set<MessageID> = []
        var lastOwn = -1
        var previous: Message?
        for message in messages {
            if !seen.insert(message.id).inserted {
                violations.append("\(message.id) is stored twice in \(conversation)")
            }
            if let previous, Message.composeOrder(message, previous) {
                violations.append("\(conversation) at the backend is out of compose order at \(message.id)")
            }
            previous = message
            if let order = composeOrder[message.id] {
                if order < lastOwn {
                    violations.append("\(message.id) reached \(conversation) ahead of a message composed before it")
                }
                lastOwn = max(lastOwn, order)
            }
        }
        return violations
    }

    /// Records a violation found outside the checks above (a store that does not reopen, for one).
    func fail(_ violation: String) {
        violations.append(violation)
    }
}
