import CourierDomain
import Foundation

/// A `LiveSync` a test drives: it hands the updates the test sends to the observers, and records what screens ask
/// of it (read markers, the chats they watch).
@MainActor
public final class FakeLiveSync: LiveSync {
    private let observers = ObserverList<SyncUpdate>()
    private var watchCounts: [ConversationID: Int] = [:]

    /// Every `markRead` call, in order.
    public private(set) var reads: [(conversation: ConversationID, upTo: MessageCursor)] = []
    /// The read markers `readMarker(for:)` answers with (the newest `markRead` too).
    public var markers: [ConversationID: MessageCursor] = [:]
    public var isLive = true

    /// Creates it.
    public init() {}

    /// Tells every observer of `update`.
    public func send(_ update: SyncUpdate) { observers.notify(update) }

    /// Whether anyone observes.
    public var hasObservers: Bool { !observers.isEmpty }

    public func observe(_ observer: @escaping @MainActor (SyncUpdate) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    public func watch(_ conversation: ConversationID) -> ObservationToken {
        watchCounts[conversation, default: 0] += 1
        return ObservationToken { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let left = (self.watchCounts[conversation] ?? 1) - 1
                self.watchCounts[conversation] = left > 0 ? left : nil
            }
        }
    }

    public func isWatched(_ conversation: ConversationID) -> Bool { watchCounts[conversation] != nil }

    public func markRead(_ conversation: ConversationID, upTo message: MessageCursor) {
        reads.append((conversation, message))
        markers[conversation] = max(markers[conversation] ?? message, message)
    }

    public func readMarker(for conversation: ConversationID) -> MessageCursor? { markers[conversation] }
}
