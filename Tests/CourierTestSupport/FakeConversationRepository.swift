import CourierDomain
import Foundation

/// A conversation backend a test sets up: it pages through `conversations` in the order given (most recent activity
/// first, as a backend answers), records every request, and throws `failure` while one is set. A negative page size
/// throws the `FakeCallError`'s `deliveryError` and is recorded as a test issue.
public final class FakeConversationRepository: ConversationRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let all: [Conversation]
    private var currentFailure: DeliveryError?
    private var requestCount = 0

    /// A backend holding `conversations`, most recent activity first.
    public init(_ conversations: [Conversation] = []) { all = conversations }

    /// The error every request throws, while one is set (see `fail(with:)`).
    public var failure: DeliveryError? { lock.withLock { currentFailure } }

    /// Makes every later request throw `error` (offline, an expired sign-in), or, with nil, answer again.
    public func fail(with error: DeliveryError?) { lock.withLock { currentFailure = error } }

    /// How many requests arrived.
    public var requests: Int { lock.withLock { requestCount } }

    /// Up to `limit` conversations after `cursor`'s conversation (from the start without one). A cursor naming a
    /// conversation the backend does not hold ends the list.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        try await DeliveryError.converting {
            guard limit >= 0 else {
                let error = FakeCallError.invalidArgument("a page of \(limit) conversations")
                throw error.recorded(by: "FakeConversationRepository")
            }
            return try lock.withLock {
                requestCount += 1
                if let currentFailure { throw currentFailure }
                let start = cursor.map { cursor in (all.firstIndex { $0.id == cursor.id } ?? all.count - 1) + 1 } ?? 0
                let page = Array(all[start...].prefix(limit))
                return ConversationPage(conversations: page, hasMore: start + page.count < all.count)
            }
        }
    }
}
