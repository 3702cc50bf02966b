import CourierDomain
import Foundation

/// The live sync a test drives: the one stand-in for `LiveSync`. It announces the updates the test sends, as the
/// sync engine does when it applies the feed, and records what screens ask of it: the read markers they make (each
/// announced as `.readByMe`, as the protocol says) and the chats they keep on screen.
@MainActor
public final class FakeLiveSync: LiveSync {
    private let observers = ObserverList<SyncUpdate>()
    /// Chats on screen, counted; behind a lock, since a watch token may be released on any thread.
    private let watching = Watching()

    /// Every `markRead` call, in order.
    public private(set) var reads: [(conversation: ConversationID, upTo: MessageCursor)] = []
    /// The read markers `readMarker(for:)` answers with: the newest per conversation of those the test sets and the
    /// screens make.
    public var readMarkers: [ConversationID: MessageCursor] = [:]
    /// Whether it says it is live.
    public var isLive = true
    /// The sign-in renewals it counts: a test raises it where the client would be told of a renewal.
    public var signInRenewals = 0
    /// The reads it says have settled: a test raises it where the engine's receipts would leave their queue.
    public var readsSettled = 0
    /// The `requestedAt` mark of every `reconcile(_:requestedAt:)` call, in order.
    public private(set) var reconciledMarks: [Int] = []
    /// The rows it holds, by id: `reconcile(_:requestedAt:)` answers a page's row with the one held here, as the sync engine
    /// answers with the row it wrote from a newer message (the rest as the page has them).
    public var rows: [ConversationID: Conversation] = [:]

    /// Creates it, live, with no read markers.
    public init() {}

    /// Tells every observer `update`, as the sync engine does when it applies the feed.
    public func announce(_ update: SyncUpdate) { observers.notify(update) }

    /// Whether anyone observes.
    public var hasObservers: Bool { !observers.isEmpty }

    /// Calls `observer` with every update, until the token is released.
    public func observe(_ observer: @escaping @MainActor (SyncUpdate) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Counts `conversation` on screen until the token is released.
    public func watch(_ conversation: ConversationID) -> ObservationToken {
        let watching = watching
        watching.add(conversation, 1)
        return ObservationToken { watching.add(conversation, -1) }
    }

    /// Whether a chat of `conversation` is on screen.
    public func isWatched(_ conversation: ConversationID) -> Bool { watching.count(conversation) > 0 }

    /// Records the read, keeps the newest marker, and announces `.readByMe`.
    public func markRead(_ conversation: ConversationID, upTo message: MessageCursor) {
        reads.append((conversation, message))
        readMarkers[conversation] = max(readMarkers[conversation] ?? message, message)
        observers.notify(.readByMe(conversation: conversation, upTo: message))
    }

    /// The newest read marker of `conversation`.
    public func readMarker(for conversation: ConversationID) -> MessageCursor? { readMarkers[conversation] }

    /// The page with each row it holds in `rows` in place of the page's, in activity order (ties as the page has them).
    public func reconcile(_ page: ConversationPage, requestedAt mark: Int) -> ConversationPage {
        reconciledMarks.append(mark)
        var answer = page
        answer.conversations = page.conversations.map { rows[$0.id] ?? $0 }.enumerated().sorted {
            $0.element.lastActivity != $1.element.lastActivity
                ? $0.element.lastActivity > $1.element.lastActivity : $0.offset < $1.offset
        }.map(\.element)
        return answer
    }

    /// Holds `rows` and announces them, as the sync engine does when it writes rows.
    public func write(_ rows: [Conversation]) {
        for row in rows { self.rows[row.id] = row }
        observers.notify(.rows(rows))
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
}
