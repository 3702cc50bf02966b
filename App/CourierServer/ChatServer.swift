import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier-server`'s core: the demo backend, durable in its own data directory, served over HTTP on 127.0.0.1.
///
/// The backend starts from the demo data the `courier` driver seeds a fresh directory with (seed 1, the virtual
/// clock's epoch) and replays its journal (`backend.log`) on top, so every accepted write survives a restart or a
/// SIGKILL: the write is journaled (synced) before its answer is sent. The directory is locked, so two servers never
/// share it. Requests are parsed on connection threads and applied one at a time on the main actor.
///
/// A long poll (`GET /events?timeout=S`) that finds nothing waits on its connection thread, never on the main actor:
/// an observer of the backend's feeds, registered on the main actor in the same turn that found nothing, wakes it
/// when its user's feed grows, and it answers then, or empty at its deadline. At most `HTTPLimits.maxHeldPolls` are
/// held at once (one more is answered 503), at most `maxHeldPollsPerUser` of one user's (one more is 429); either
/// refusal closes its connection. A request with a live token counts its connection as its user's, at most
/// `maxConnectionsPerUser` (one more is 429, closed). A poll whose client hung up is dropped within
/// `HeldPolls.probeInterval`; revoking a token answers its held polls 401 at once.
@MainActor
public final class ChatServer {
    /// The demo data's seed.
    public static let demoSeed: UInt64 = 1
    /// The password of every demo user — for the demo only.
    public static let demoPassword = "courier"
    /// How long a token lives unless `--token-lifetime` says otherwise.
    public static let defaultTokenLifetime: Duration = .seconds(3_600)

    /// The backend served.
    public let backend: InMemoryChatBackend
    /// Who is signed in: tokens, sign-in throttling (`DIR/sessions.log`).
    public let sessions: SignInAuthority
    /// The port it listens on.
    public var port: UInt16 { sockets.port }
    /// The address to give clients.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Connections being served now.
    public var openConnections: Int { sockets.openConnections }

    /// Long polls being held now.
    public var heldPolls: Int { polls.count }
    /// Held long polls answered before their deadline, because an event arrived for their user.
    public var pollsAnsweredEarly: Int { polls.ended(.woken) }
    /// Held long polls answered at their deadline (or when the server stopped), with whatever waited.
    public var pollsRunOut: Int { polls.ended(.due) }
    /// Held long polls let go because their client hung up.
    public var pollsAbandoned: Int { polls.ended(.abandoned) }

    /// Heavy requests (`HTTPRequest.isHeavy`) decoded and checked on a thread of lower priority than their
    /// connection's (Linux).
    public var heavyRequestsScreenedAtLowPriority: Int { heavyScreens.count }

    private let heavyScreens = LowPriority.Tally()
    private let sockets: SocketServer
    private let polls: HeldPolls
    private let journal: RecordLogBackendJournal
    private let lock: DataDirectoryLock

    /// Opens `directory` (creating it) and binds 127.0.0.1:`port` (0: a free one). Tokens live `tokenLifetime` on
    /// `clock`; requests are held to `limits` and `contentLimits`; `devRoutes` answers the development routes (which
    /// change other users' state). Throws `StoreError.locked` when another process holds the directory, `SocketError`
    /// when the port cannot be bound.
    public init(
        directory: URL, port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(),
        contentLimits: ContentLimits = ContentLimits(), devRoutes: Bool = false,
        tokenLifetime: Duration = ChatServer.defaultTokenLifetime, clock: any Clock = SystemClock(),
        logger: Logger = .silent
    ) throws {
        let fileSystem = PosixFileSystem()
        try fileSystem.createDirectory(directory.path)
        lock = try DataDirectoryLock.acquire(directory: directory, fileSystem: fileSystem)
        do {
            journal = try RecordLogBackendJournal(
                path: directory.appendingPathComponent("backend.log").path, fileSystem: fileSystem, logger: logger)
            backend = try InMemoryChatBackend(
                seed: DemoData.make(seed: Self.demoSeed, now: ManualClock().now), journal: journal)
            let backend = self.backend
            let demoPassword = SHA256.digest(Self.demoPassword.utf8)
            sessions = try SignInAuthority(
                path: directory.appendingPathComponent("sessions.log").path, fileSystem: fileSystem, clock: clock,
                tokenLifetime: tokenLifetime, logger: logger
            ) { user, password in
                // Hashed first, so the comparison takes as long whatever the password's length.
                let matches = SHA256.constantTimeEqual(SHA256.digest(password.utf8), demoPassword)
                return backend.user(user) != nil && matches
            }
            let router = ChatRouter(
                backend: backend, sessions: sessions, limits: contentLimits, devRoutes: devRoutes)
            let polls = HeldPolls(limit: limits.maxHeldPolls, perUser: limits.maxHeldPollsPerUser)
            self.polls = polls
            let turns = FairTurns()
            let rates = RequestRates(burst: contentLimits.requestBurst, perSecond: contentLimits.requestsPerSecond)
            let heavyScreens = self.heavyScreens
            sockets = try SocketServer(port: port, limits: limits) { request, probe in
                Self.serve(
                    request, probe: probe, router: router, backend: backend, polls: polls, limits: limits,
                    contentLimits: contentLimits, turns: turns, rates: rates, heavyScreens: heavyScreens)
            }
        } catch {
            lock.release()
            throw error
        }
        sockets.start()
    }

    /// Stops serving and releases the directory. Held polls are answered at once with what waits.
    public func stop() {
        polls.stop()
        sockets.stop()
        journal.close()
        sessions.close()
        lock.release()
    }

    // MARK: - On a connection thread

    /// Answers one request from its connection thread: routed on the main actor, and, for a long poll that found
    /// nothing, held here until the poll's user's feed grows, its deadline passes, the server stops or the client
    /// leaves.
    nonisolated private static func serve(
        _ request: HTTPRequest, probe: ConnectionProbe, router: ChatRouter, backend: InMemoryChatBackend,
        polls: HeldPolls, limits: HTTPLimits, contentLimits: ContentLimits, turns: FairTurns, rates: RequestRates,
        heavyScreens: LowPriority.Tally
    ) -> HTTPResponse {
        // One of a token's requests at a time is read and applied (`FairTurns`): its body is decoded and checked here,
        // on the connection's thread, then admission, routing and the observer happen in one main-actor turn, so no
        // event slips in between. A token's other requests wait, blocked, spending no CPU: one user's many
        // connections get the server's work of one.
        let token = ChatRouter.bearer(of: request)
        // A token asking faster than its rate is answered before anything of its request is read (`RequestRates`).
        if let token, let wait = rates.take(by: token) {
            let reason = "at most \(contentLimits.requestsPerSecond) requests a second per sign-in"
            var response = HTTPResponse(status: 429, body: SocketServer.errorBody("rateLimited", reason))
            response.headers.append((HTTPWire.retryAfterHeader, "\(wait)"))
            return response
        }
        func onMainActor<Value: Sendable>(_ work: @MainActor () -> Value) -> Value {
            turns.run(as: token) { DispatchQueue.main.sync { MainActor.assumeIsolated { work() } } }
        }
        @MainActor func admit(_ request: HTTPRequest) -> Admitted {
            let user = router.signedInUser(of: request)
            if let user, !probe.claim(for: user.rawValue) {
                return .refused(
                    Self.refusal(429, "this user holds \(limits.maxConnectionsPerUser) connections already"))
            }
            if let batch = router.startBatchInTurns(request) { return .batch(batch) }
            let route = router.route(request)
            guard case .hold(let poll) = route else {
                if case .answer(let response) = route, let user, request.method == "DELETE", response.status == 204 {
                    polls.wakeAll(of: user.rawValue)  // a revoked token's held polls answer 401 now
                }
                return .routed(route)
            }
            switch polls.admit(for: poll.user.rawValue) {
            case .failure(.full): return .refused(Self.refusal(503, "too many held polls"))
            case .failure(.userFull):
                return .refused(Self.refusal(429, "this user holds \(limits.maxHeldPollsPerUser) long polls already"))
            case .success(let key):
                let token = backend.observeFeeds { user in if user == poll.user { polls.wake(key) } }
                return .held(poll, key, token)
            }
        }
        let admitted = turns.run(as: token) { () -> Admitted in
            var request = request
            let refusal: DeliveryError?
            if request.isHeavy {
                // Decoded and checked on a thread of lower priority; the main actor's turn below stays at full.
                let nice: Int32?
                (request, refusal, nice) = LowPriority.run { [request] in
                    var screened = request
                    let refusal = contentLimits.screen(&screened)
                    return (screened, refusal, LowPriority.currentNice)
                }
                if let nice, let own = LowPriority.currentNice, nice > own { heavyScreens.add() }
            } else {
                refusal = contentLimits.screen(&request)
            }
            if let refusal {
                let body = (try? HTTPWire.encode(HTTPWire.body(for: refusal))).map(Array.init) ?? []
                return .refused(HTTPResponse(status: HTTPWire.status(for: refusal), body: body))
            }
            return DispatchQueue.main.sync { MainActor.assumeIsolated { admit(request) } }
        }
        let poll: FeedPoll
        let key: Int
        let observation: ObservationToken
        switch admitted {
        case .refused(let response): return response
        case .batch(var batch):
            // The rest of a large batch, a turn at a time: other tokens' requests get theirs in between.
            while !batch.isDone { batch = onMainActor { router.continueBatch(batch) } }
            return ChatRouter.response(to: batch)
        case .routed(.answer(let response)): return response
        case .routed(.hold): return Self.refusal(503, "too many held polls")
        case .held(let held, let heldKey, let heldToken): (poll, key, observation) = (held, heldKey, heldToken)
        }
        defer { observation.cancel() }
        while true {
            let wake = polls.wait(key, until: poll.deadline, clientHungUp: { probe.clientHungUp })
            switch wake {
            case .abandoned:
                // Most likely nobody reads it; a client that only half-closed its side still gets its answer.
                var response = onMainActor { router.answer(poll) }
                response.closesConnection = true
                polls.release(key, ending: wake)
                return response
            case .woken:
                guard let response = onMainActor({ router.answerIfReady(poll) }) else { continue }
                polls.release(key, ending: wake)
                return response
            case .due:
                let response = onMainActor { router.answer(poll) }
                polls.release(key, ending: wake)
                return response
            }
        }
    }

    /// What admission made of a request: answered or held as routed, or refused (and its connection closed).
    private enum Admitted: Sendable {
        case routed(ChatRoute)
        case held(FeedPoll, Int, ObservationToken)
        case batch(BatchInTurns)
        case refused(HTTPResponse)
    }

    /// A refusal by admission: its status, a reason naming the limit, `Retry-After: 1`, and the connection closed.
    nonisolated private static func refusal(_ status: Int, _ reason: String) -> HTTPResponse {
        var response = HTTPResponse(
            status: status, body: SocketServer.errorBody(status == 429 ? "rateLimited" : "server", reason),
            closesConnection: true)
        response.headers.append(("Retry-After", "1"))
        return response
    }

}
