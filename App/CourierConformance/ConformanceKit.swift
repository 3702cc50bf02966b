import CourierData
import CourierDomain
import Foundation

/// Checks any backend against the REST contract of docs/http-api.md, over HTTP, as `courier-conformance` does:
/// idempotent sends, batches, compose order, cursors, the status table, sign-in and revocation, who may do what
/// (with a second user), and the event feed's order, gaps and expiry.
///
/// It writes only into conversations its users are in, and only messages with fresh random ids, so it can run again
/// and again against the same backend; what it leaves behind are a few dozen messages whose text begins
/// `conformance:`. Checks run one at a time, in `ConformanceCheck`'s order; a check that cannot be made (no second
/// user) is skipped, never passed. A backend written by others keeps its own users: the kit is given their
/// passwords.
public final class ConformanceKit {
    /// What is checked, and as whom.
    public let options: ConformanceOptions
    let http: ConformanceHTTP
    private var results: [ConformanceResult] = []
    private var listener: (ConformanceResult) -> Void = { _ in }

    /// User one, signed in (nil until `signIn` passed).
    var user1: ConformanceUser?
    /// User two, signed in when given.
    var user2: ConformanceUser?
    /// Where user one writes: a conversation shared with user two when there is one, else user one's first.
    var writable: ConversationID?
    /// A conversation of both users' (nil without user two, or when they share none).
    var shared: ConversationID?
    /// A conversation of user one's that user two is not in.
    var foreign: ConversationID?

    /// A kit for `options`.
    public init(options: ConformanceOptions) {
        self.options = options
        http = ConformanceHTTP(baseURL: options.server, timeout: options.timeout)
    }

    /// Runs every check once, telling `report` each result as it comes, and returns them all. A backend that
    /// refuses user one's sign-in ends the run there: nothing else can be checked.
    public func run(report: @escaping (ConformanceResult) -> Void = { _ in }) async -> ConformanceReport {
        results = []
        listener = report
        await checkSessions()
        guard user1 != nil else { return ConformanceReport(results: results) }
        await checkConversationList()
        await checkIdempotentPut()
        await checkBatch()
        await checkComposeOrderAndCursors()
        await checkStatusTable()
        await checkRevokedToken()
        await checkAuthorization()
        await checkFeed()
        return ConformanceReport(results: results)
    }

    // MARK: - Running checks

    /// Runs one check: passed when `body` returns, failed with its reason when it throws.
    func check(_ check: ConformanceCheck, _ body: () async throws(ConformanceFailure) -> Void) async {
        do {
            try await body()
            record(check, .passed)
        } catch {
            record(check, .failed(error.reason))
        }
    }

    /// Records `check` as skipped, because of `reason`.
    func skip(_ check: ConformanceCheck, _ reason: String) {
        record(check, .skipped(reason))
    }

    private func record(_ check: ConformanceCheck, _ outcome: ConformanceResult.Outcome) {
        let result = ConformanceResult(check: check, outcome: outcome)
        results.append(result)
        listener(result)
    }

    // MARK: - What the checks need

    /// User one, or the failure that they are not signed in.
    func signedIn() throws(ConformanceFailure) -> ConformanceUser {
        guard let user1 else { throw ConformanceFailure("\(options.user.id) is not signed in") }
        return user1
    }

    /// User one and the conversation they write into, or the failure that there is none.
    func writer() throws(ConformanceFailure) -> (user: ConformanceUser, conversation: ConversationID) {
        let user = try signedIn()
        guard let writable else {
            throw ConformanceFailure("\(user.id) is in no conversation to write into (their list is empty or failed)")
        }
        return (user, writable)
    }

    /// A message no backend has seen: a fresh random id, text beginning `conformance:`, sent by `sender` (user one
    /// unless said otherwise) at `date`.
    func freshMessage(
        _ label: String, in conversation: ConversationID, from sender: UserID? = nil, at date: Date = Date()
    ) -> Message {
        let id = UUID().uuidString.lowercased()
        return Message(
            id: MessageID(id), conversationID: conversation, senderID: sender ?? options.user.id,
            text: "conformance: \(label) (\(id.prefix(8)))", timestamp: date, status: .sending)
    }

    /// Every message of `conversation` as user one reads it, oldest first: the first `smallPages` pages of 3 (so
    /// that page boundaries fall among the newest messages, the kit's own), then pages of 100, at most `maxPages`
    /// in all; fails when a page repeats a message, is longer than asked, or the cursors lead nowhere.
    func allMessages(of conversation: ConversationID, smallPages: Int = 4, maxPages: Int = 2_000)
        async
        throws(ConformanceFailure) -> [Message]
    {
        let user = try signedIn()
        var pages: [[Message]] = []
        var seen = Set<MessageID>()
        var cursor: String?
        for index in 0..<maxPages {
            let limit = index < smallPages ? 3 : 100
            let page = try await user.page(of: conversation, before: cursor, limit: limit)
            try ConformanceFailure.require(
                page.messages.count <= limit, "a page of limit \(limit) held \(page.messages.count) messages")
            for message in page.messages {
                try ConformanceFailure.require(
                    seen.insert(message.id).inserted,
                    "message \(message.id) came twice, again on page \(pages.count + 1)")
            }
            pages.append(page.messages)
            guard page.hasMore else { return pages.reversed().flatMap { $0 } }
            guard let next = page.nextCursor else {
                throw ConformanceFailure("page \(pages.count) says hasMore but carries no nextCursor")
            }
            try ConformanceFailure.require(!page.messages.isEmpty, "an empty page says hasMore")
            cursor = next
        }
        throw ConformanceFailure("still more after \(maxPages) pages")
    }
}
