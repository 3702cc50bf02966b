import CourierDomain
import Foundation

/// A `LiveSync` a test drives by hand: it announces the updates the test sends, and holds the chats on screen and
/// the read markers the screens make.
@MainActor
public final class ManualLiveSync: LiveSync {
    private let observers = ObserverList<SyncUpdate>()
    /// Chats on screen, counted; behind a lock, since a watch token may be released on any thread.
    private let watching = Watching()
    /// The read markers the screens made, newest per conversation.
    public private(set) var readMarkers: [ConversationID: MessageCursor] = [:]
    /// Whether it says it is live.
    public var isLive = true

    /// Creates it.
    public init() {}

    /// Tells every observer `update`, as the sync engine does when it applies the feed.
    public func announce(_ update: SyncUpdate) { observers.notify(update) }

    public func observe(_ observer: @escaping @MainActor (SyncUpdate) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    public func watch(_ conversation: ConversationID) -> ObservationToken {
        let watching = watching
        watching.add(conversation, 1)
        return ObservationToken { watching.add(conversation, -1) }
    }

    public func isWatched(_ conversation: ConversationID) -> Bool { watching.count(conversation) > 0 }

    public func markRead(_ conversation: ConversationID, upTo message: MessageCursor) {
        readMarkers[conversation] = max(readMarkers[conversation] ?? message, message)
        observers.notify(.readByMe(conversation: conversation, upTo: message))
    }

    public func readMarker(for conversation: ConversationID) -> MessageCursor? { readMarkers[conversation] }
}

/// Counts per conversation behind a lock.
private final class Watching: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [ConversationID: Int] = [:]

    func add(_ conversation: ConversationID, _ delta: Int) {
        lock.withLock { counts[conversation, default: 0] += delta }
    }

    func count(_ conversation: ConversationID) -> Int { lock.withLock { counts[conversation] ?? 0 } }
}
