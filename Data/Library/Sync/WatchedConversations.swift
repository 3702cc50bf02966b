import CourierDomain
import CourierStore
import Foundation

/// Which conversations have a chat on screen, counted, behind a lock: a watch token may be released on any thread.
final class WatchedConversations: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [ConversationID: Int] = [:]

    /// Counts a chat of `conversation` until the returned token is released.
    func watch(_ conversation: ConversationID) -> ObservationToken {
        lock.withLock { counts[conversation, default: 0] += 1 }
        return ObservationToken { [weak self] in self?.release(conversation) }
    }

    /// Whether a chat of `conversation` is on screen.
    func contains(_ conversation: ConversationID) -> Bool { lock.withLock { counts[conversation] != nil } }

    /// The conversations on screen, in id order.
    var all: [ConversationID] { lock.withLock { counts.keys.sorted() } }

    private func release(_ conversation: ConversationID) {
        lock.withLock {
            let left = (counts[conversation] ?? 1) - 1
            counts[conversation] = left > 0 ? left : nil
        }
    }
}
