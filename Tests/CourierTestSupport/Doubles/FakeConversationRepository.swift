import CourierDomain
import Foundation

/// The conversation backend a test sets up: the one stand-in for `ConversationRepository`, for the caches and the
/// client in front of one and for the conversation list that reads from one.
///
/// It pages through the conversations it holds, most recent activity first (as a backend answers), by cursor; each
/// request is recorded, waits `latency` on the clock, then throws `failure` while one is set, or answers from the
/// cache (`answerFromCache(_:times:)`) while such answers are left. A fake made without conversations was set up for
/// no request, and a page of no conversations is asked by no caller: either throws `FakeCallError` and is recorded as
/// a test issue naming the call.
public final class FakeConversationRepository: ConversationRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: any Clock
    private let latency: Duration
    private var all: [Conversation]?
    private var currentFailure: DeliveryError?
    private var cachedAnswers: (conversations: [Conversation], left: Int) = ([], 0)
    private var requestCount = 0

    /// A backend holding `conversations` (any order), each request taking `latency` on `clock`. Without
    /// conversations (nil, not an empty list) it expects no request at all.
    public init(_ conversations: [Conversation]? = nil, clock: any Clock = ManualClock(), latency: Duration = .zero) {
        all = conversations?.sorted(by: Self.mostRecentFirst)
        self.clock = clock
        self.latency = latency
    }

    /// The error every request throws, while one is set (see `fail(with:)`).
    public var failure: DeliveryError? { lock.withLock { currentFailure } }

    /// Makes every later request throw `error` (offline, an expired sign-in), or, with nil, answer again.
    public func fail(with error: DeliveryError?) { lock.withLock { currentFailure = error } }

    /// The next `times` requests answer `conversations` (any order) as a cache does, marked `isCached`, instead of
    /// what the backend holds: a client that could not reach the backend.
    public func answerFromCache(_ conversations: [Conversation], times: Int = 1) {
        lock.withLock { cachedAnswers = (conversations.sorted(by: Self.mostRecentFirst), times) }
    }

    /// From now on the backend holds `conversations` (any order): what happened meanwhile, as a later page sees it.
    public func replace(with conversations: [Conversation]) {
        lock.withLock { all = conversations.sorted(by: Self.mostRecentFirst) }
    }

    /// How many requests arrived (a failed one counts).
    public var requests: Int { lock.withLock { requestCount } }

    /// Up to `limit` conversations after `cursor` (from the most recent without one), after `latency`.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError)
        -> ConversationPage
    {
        try await DeliveryError.converting {
            guard limit > 0 else {
                throw FakeCallError.invalidArgument("a page of \(limit) conversations")
                    .recorded(by: "FakeConversationRepository")
            }
            let answer: (conversations: [Conversation], isCached: Bool, failure: DeliveryError?)? = lock.withLock {
                guard let all else { return nil }
                requestCount += 1
                guard cachedAnswers.left <= 0 else {
                    cachedAnswers.left -= 1
                    return (cachedAnswers.conversations, true, currentFailure)
                }
                return (all, false, currentFailure)
            }
            guard let answer else {
                throw FakeCallError.unexpected("conversations(of:after:limit:)").recorded(
                    by: "FakeConversationRepository")
            }
            if latency > .zero { try await clock.sleep(for: latency) }
            if let failure = answer.failure { throw failure }
            let rest =
                cursor.map { cursor in
                    answer.conversations.filter { ($0.lastActivity, $0.id) < (cursor.lastActivity, cursor.id) }
                } ?? answer.conversations
            return ConversationPage(
                conversations: Array(rest.prefix(limit)), hasMore: rest.count > limit, isCached: answer.isCached)
        }
    }

    private static func mostRecentFirst(_ one: Conversation, _ other: Conversation) -> Bool {
        (one.lastActivity, one.id) > (other.lastActivity, other.id)
    }
}
