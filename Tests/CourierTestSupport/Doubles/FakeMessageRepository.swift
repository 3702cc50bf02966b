import CourierDomain
import Foundation

/// The message backend a test sets up: the one stand-in for `MessageRepository`, for the code that sits in front of
/// one (outbox, retry, cache, client) and for the screens that load pages from one (the chat).
///
/// Each request (send, batch or page) is recorded with its clock time, waits `latency` on the clock, then answers:
/// from `script`, one step a request, when there is one; otherwise from the settings — `failure` throws for the
/// whole request, `failures` refuses one message id once per entry, `refusal` refuses every message, and whatever is
/// not refused is stored once by id (a resend stores nothing new) and answered as `reply` says. Pages come from what
/// is stored (`history`, `seed(_:)` and what was sent), oldest first. With `reachable`, a request made while that
/// connectivity is offline fails with `.offline` at once and is not recorded: it never left the device.
///
/// A request the fake was not set up for — a kind not in `serves`, a request past the end of the script, a page of
/// no messages — throws `FakeCallError` and is recorded as a test issue naming the call, so the test fails even where
/// the code under test swallows the error.
///
/// Its state is behind a lock, so a test on any executor may set it up and read it; its requests run on their
/// caller's executor, like the repositories it stands in for.
public final class FakeMessageRepository: MessageRepository, @unchecked Sendable {
    private struct State {
        var script: [Step]?
        var reply = Reply.sent
        var latency = Duration.zero
        var latencyByConversation: [ConversationID: Duration] = [:]
        var finishesWhenCancelled = false
        var serves: Requests = [.sends, .pages]
        var failure: DeliveryError?
        var refusal: DeliveryError?
        var failures: [MessageID: [DeliveryError]] = [:]
        var stored: [Message] = []
        var requestTimes: [Date] = []
        var sends = 0
        var batches: [[Message]] = []
        var pageRequests: [MessageCursor?] = []

        /// The error `id` is refused with on this request, if any (a per-id failure is used up).
        mutating func refuse(_ id: MessageID) -> DeliveryError? {
            if var queue = failures[id], !queue.isEmpty {
                let error = queue.removeFirst()
                failures[id] = queue
                return error
            }
            return refusal
        }

        /// Stores `message` unless its id is stored already; returns the answer.
        mutating func store(_ message: Message) -> Message {
            var answer = message
            if reply == .sent { answer.status = .sent }
            if !stored.contains(where: { $0.id == message.id }) { stored.append(answer) }
            return answer
        }
    }

    private let clock: any Clock
    private let reachable: ManualConnectivity?
    private let lock = NSLock()
    private var state = State()

    /// A backend on `clock` (whose time stamps the requests and carries their latency) holding `history` (any
    /// order, for pages to serve), expecting the requests in `serves` only, and reached only while `reachable` is
    /// online when one is given. With a `script`, request n does step n, and a request past its end is unexpected;
    /// without one, every request answers as the settings say. The other arguments are the settings of the same
    /// names.
    public init(
        clock: any Clock = ManualClock(), history: [Message] = [], serves: Requests = [.sends, .pages],
        script: [Step]? = nil, latency: Duration = .zero, reply: Reply = .sent, finishesWhenCancelled: Bool = false,
        reachable: ManualConnectivity? = nil
    ) {
        self.clock = clock
        self.reachable = reachable
        state.stored = history
        state.serves = serves
        state.script = script
        state.latency = latency
        state.reply = reply
        state.finishesWhenCancelled = finishesWhenCancelled
    }

    private func locked<Value>(_ body: (inout State) throws -> Value) rethrows -> Value {
        try lock.withLock { try body(&state) }
    }

    private subscript<Value>(setting: WritableKeyPath<State, Value>) -> Value {
        get { locked { $0[keyPath: setting] } }
        set { locked { $0[keyPath: setting] = newValue } }
    }

    // MARK: - Settings

    /// How stored messages are answered; `sent` unless told otherwise.
    public var reply: Reply {
        get { self[\.reply] }
        set { self[\.reply] = newValue }
    }

    /// How long every request takes on the clock; none unless told otherwise.
    public var latency: Duration {
        get { self[\.latency] }
        set { self[\.latency] = newValue }
    }

    /// The latency of requests about one conversation, where it differs from `latency`.
    public var latencyByConversation: [ConversationID: Duration] {
        get { self[\.latencyByConversation] }
        set { self[\.latencyByConversation] = newValue }
    }

    /// Whether a request whose caller is cancelled during its latency still answers (a request already on the wire)
    /// rather than leaving with `CancellationError`; false unless told otherwise.
    public var finishesWhenCancelled: Bool {
        get { self[\.finishesWhenCancelled] }
        set { self[\.finishesWhenCancelled] = newValue }
    }

    /// The kinds of request expected; both unless told otherwise (a sender that never reads serves `.sends`, a
    /// screen that reads through it and sends through the outbox `.pages`).
    public var serves: Requests {
        get { self[\.serves] }
        set { self[\.serves] = newValue }
    }

    /// The steps of the next requests, one a request, the first first: set while a test runs, it scripts what comes
    /// from then on (a request past its end is then unexpected); nil answers every request as the settings say.
    public var script: [Step]? {
        get { self[\.script] }
        set { self[\.script] = newValue }
    }

    /// The error every request throws as a whole, while one is set (see `fail(with:)`).
    public var failure: DeliveryError? { self[\.failure] }

    /// Makes every later request throw `error` as a whole (offline, an expired sign-in), or, with nil, answer again.
    public func fail(with error: DeliveryError?) { self[\.failure] = error }

    /// The error every message is refused with, when set: a batch answers it per message, a send throws it.
    public var refusal: DeliveryError? {
        get { self[\.refusal] }
        set { self[\.refusal] = newValue }
    }

    /// The errors a message id is refused with, the first on its next request, each used once.
    public var failures: [MessageID: [DeliveryError]] {
        get { self[\.failures] }
        set { self[\.failures] = newValue }
    }

    /// Stores `messages` as if sent earlier, for pages to serve.
    public func seed(_ messages: [Message]) {
        locked { $0.stored += messages }
    }

    // MARK: - Records

    /// Every message stored, once each, in arrival order, as answered.
    public var stored: [Message] { locked { $0.stored } }
    /// The clock time of every request, in order.
    public var requestTimes: [Date] { locked { $0.requestTimes } }
    /// How many requests arrived (sends, batches and page loads).
    public var requests: Int { locked { $0.requestTimes.count } }
    /// How many single sends arrived.
    public var sends: Int { locked { $0.sends } }
    /// The messages of every batch request, in order, as given.
    public var batches: [[Message]] { locked { $0.batches } }
    /// The cursor of every page load, in order (nil: the newest page).
    public var pageRequests: [MessageCursor?] { locked { $0.pageRequests } }

    // MARK: - MessageRepository

    /// Sends one message, answering as the step or the settings say.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await DeliveryError.converting {
            try await expect(.sends, "send(_:)")
            let (step, number) = begin { $0.sends += 1 }
            try await play(step, request: number, conversation: message.conversationID)
            return try locked { state in
                if let failure = state.failure { throw failure }
                if let error = state.refuse(message.id) { throw error }
                return state.store(message)
            }
        }
    }

    /// Sends a batch, answering per message as the step or the settings say.
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        try await DeliveryError.converting {
            try await expect(.sends, "sendBatch(_:)")
            let (step, number) = begin { $0.batches.append(messages) }
            if case .batch(let errors) = step {
                return locked { state in
                    zip(messages, errors).map { message, error in
                        error.map { .failure($0) } ?? .success(state.store(message))
                    }
                }
            }
            try await play(step, request: number, conversation: messages.first?.conversationID)
            return try locked { state in
                if let failure = state.failure { throw failure }
                return messages.map { message in
                    state.refuse(message.id).map { .failure($0) } ?? .success(state.store(message))
                }
            }
        }
    }

    /// The page of stored messages just before `cursor`, oldest first.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError)
        -> MessagePage
    {
        try await DeliveryError.converting {
            guard limit > 0 else { throw unexpected(.invalidArgument("a page of \(limit) messages")) }
            try await expect(.pages, "messages(in:before:limit:)")
            let (step, number) = begin { $0.pageRequests.append(cursor) }
            try await play(step, request: number, conversation: conversation)
            return try locked { state in
                if let failure = state.failure { throw failure }
                let all = state.stored.filter { $0.conversationID == conversation }.sorted(by: Message.composeOrder)
                let older = cursor.map { cursor in all.filter { $0.cursor < cursor } } ?? all
                return MessagePage(messages: Array(older.suffix(limit)), hasMore: older.count > limit)
            }
        }
    }

    // MARK: - Playing a request

    /// Throws, recording an issue, when `kind` is not served; throws `.offline` when the device cannot reach it.
    private func expect(_ kind: Requests, _ requirement: String) async throws {
        guard locked({ $0.serves.contains(kind) }) else { throw unexpected(.unexpected(requirement)) }
        if let reachable, await !reachable.isOnline { throw DeliveryError.offline }
    }

    /// Records a request; returns its scripted step (nil without a script) and its number.
    private func begin(_ record: (inout State) -> Void) -> (step: Step?, number: Int) {
        locked { state in
            state.requestTimes.append(clock.now)
            record(&state)
            let number = state.requestTimes.count
            guard state.script != nil else { return (nil, number) }
            return (state.script?.isEmpty == false ? state.script?.removeFirst() : nil, number)
        }
    }

    /// Waits out the request's latency and throws what its step says; returns when it is to be answered.
    private func play(_ step: Step?, request number: Int, conversation: ConversationID?) async throws {
        let (scripted, latency, finishes) = locked { state in
            (
                state.script != nil, conversation.flatMap { state.latencyByConversation[$0] } ?? state.latency,
                state.finishesWhenCancelled
            )
        }
        if scripted, step == nil { throw unexpected(.unscripted(request: number)) }
        if latency > .zero {
            if finishes { try? await clock.sleep(for: latency) } else { try await clock.sleep(for: latency) }
        }
        switch step {
        case nil, .answer?: return
        case .fail(let error)?: throw error
        case .hang?: try await clock.sleep(for: .seconds(3_600))
        case .batch?: throw unexpected(.batchAnswerForSingleRequest(request: number))
        }
    }

    private func unexpected(_ error: FakeCallError) -> FakeCallError {
        error.recorded(by: "FakeMessageRepository")
    }
}
