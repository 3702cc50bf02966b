import CourierDomain
import Foundation
import Testing

/// A backend that serves one conversation's history by cursor after `latency` on the clock, and records each
/// page request. With `reachable`, it answers only while that connectivity is online: offline, a page request
/// fails with `.offline` at once and is not recorded. Sending through it is unexpected: messages go out through the
/// outbox.
public final class ChatFakeRepository: MessageRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: ManualClock
    private let latency: Duration
    private let reachable: ManualConnectivity?
    private var history: [ConversationID: [Message]] = [:]
    private var requests: [MessageCursor?] = []
    private var failures: [DeliveryError] = []

    /// Creates a backend holding `history` (any order), reached only while `reachable` is online when given.
    public init(
        clock: ManualClock, latency: Duration = .seconds(1), history: [Message] = [],
        reachable: ManualConnectivity? = nil
    ) {
        self.clock = clock
        self.latency = latency
        self.reachable = reachable
        self.history = Dictionary(grouping: history, by: \.conversationID).mapValues {
            $0.sorted(by: Message.composeOrder)
        }
    }

    /// A backend that cannot be reached at all: every page request fails with `.offline`.
    @MainActor
    public static func unreachable(clock: ManualClock) -> ChatFakeRepository {
        ChatFakeRepository(clock: clock, reachable: ManualConnectivity(online: false))
    }

    /// The next page requests fail with these errors, one each, in order (after the latency, recorded).
    public func failNextPages(with errors: [DeliveryError]) { lock.withLock { failures = errors } }

    /// The cursors of the page requests so far (nil: the newest page).
    public var pageRequests: [MessageCursor?] { lock.withLock { requests } }

    /// Records an issue: the chat sends through the outbox.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await DeliveryError.converting {
            Issue.record("the chat sends through the outbox, never the repository")
            throw DeliveryError.unknown("unexpected")
        }
    }

    /// The page of at most `limit` messages before `cursor` (the newest when nil), after `latency`.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        try await DeliveryError.converting {
            // A bad limit is a typed error, as the real backend answers, not a trap that ends the whole test run.
            guard limit > 0 else { throw DeliveryError.validation(reason: "a page holds at least one message") }
            if let reachable, await !reachable.isOnline { throw DeliveryError.offline }
            let (all, failure): ([Message], DeliveryError?) = lock.withLock {
                requests.append(cursor)
                return (history[conversation] ?? [], failures.isEmpty ? nil : failures.removeFirst())
            }
            try await clock.sleep(for: latency)
            if let failure { throw failure }
            let older = cursor.map { cursor in all.filter { $0.cursor < cursor } } ?? all
            let page = Array(older.suffix(limit))
            return MessagePage(messages: page, hasMore: older.count > page.count)
        }
    }
}
