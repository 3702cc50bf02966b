import CourierData
import CourierDemoWorld
import CourierDomain
import Foundation

/// The simulated network between the client and an `InMemoryChatBackend`: connectivity, latency, lost requests
/// and responses, and injected server failures — every delay a sleep on the injected clock, every random choice
/// drawn from the injected seeded generator, so a run replays identically.
///
/// Each request that leaves the device (one round trip) goes like this:
/// 1. Offline: it fails with `.offline` at once and is not a round trip.
/// 2. Three numbers are drawn, always the same three, whatever the profile: the latency (profile ± jitter), the
///    loss draw (the profile's `lossRate`, half "request lost", half "response lost") and the `failRate` draw.
/// 3. Half the latency passes on the way out. A lost request then waits out `requestTimeout` (counted from the
///    start) and fails with `.timeout`; the backend never saw it. A request hit by `failRate` fails with
///    `.server(code: 503)` after the other half of the latency; the backend never saw it either.
/// 4. The backend answers at once. A lost response waits out `requestTimeout` and fails with `.timeout`, although
///    the backend applied the write — the "unknown outcome" that idempotent resends resolve.
/// 5. The other half of the latency passes on the way back, then the backend's answer (value or error) is returned.
/// Going offline while a request is on the way fails it with `.offline` at once — before the backend (nothing
/// applied) or after it (applied: the unknown outcome again), and so even when the device is back online by the time
/// the request hears of it. A cancelled caller gets `CancellationError`. While the
/// backend is down (`isRefusing`, or `flap`) a request fails with `.unreachable` halfway out, never reaching it.
/// While it hangs (`isHanging`: it accepts connections and answers nothing, as a frozen server or a captive portal
/// does) a request never reaches it and fails with `.unanswered` once `unansweredBound` has passed since it left:
/// silence is a connectivity state, exactly as a refused connection is, and no request waits on it longer. (The
/// caller cannot tell that it never arrived: to it, the outcome of a write is unknown.)
@MainActor
public final class NetworkConditioner {
    // MARK: - Settings and counters

    /// The latency and loss profile.
    public var profile: NetworkProfile
    /// An extra fraction (0…1, clamped) of requests that fail with `.server(code: 503)` before the backend.
    public var failRate: Double {
        didSet { failRate = min(1, max(0, failRate.isNaN ? 0 : failRate)) }
    }
    /// How long a client waits for a lost request or response before it sees `.timeout`.
    public var requestTimeout: Duration
    /// Requests that left the device (offline refusals are not counted; a batch is one).
    public internal(set) var roundTrips = 0
    /// Whether the device is online.
    public private(set) var isOnline: Bool
    /// Whether the backend refuses every connection (it is down): each request fails with `.unreachable` after the
    /// first half of its latency, never reaching the backend. The device's path is untouched.
    public var isRefusing = false
    /// Whether the backend hangs: it accepts every connection and never answers (a frozen process, a captive portal,
    /// a proxy holding the line). Each request fails with `.unanswered` `unansweredBound` after it left, never
    /// reaching the backend. The device's path is untouched.
    public var isHanging = false
    /// How long a request waits for a backend that accepted it and says nothing before it is taken as unreachable
    /// (docs/reliability.md, "Lie-fi"): 5 s, as the HTTP client's own bound (`HTTPChatClient.unansweredBound`).
    public var unansweredBound: Duration = .seconds(5)
    /// Whether a long poll to `remote` is held by the server (true) or asked without a hold. A driver on a virtual
    /// clock turns it off: a socket held for real time would keep virtual time from moving (a wait on anything but
    /// the clock counts as running work), so every command would wait out the hold.
    public var holdsRemotePolls = true
    /// A real server to carry requests to instead of the in-process backend (the driver's `--server` or `--matrix`); connectivity,
    /// the profile and the fail rate still apply on the device side.
    public var remote: (any ChatBackend)?
    /// The user the simulated device is signed in as: every request reaches the backend as theirs, and the backend
    /// refuses what they may not do (`InMemoryChatBackend`'s rules). The backend's `signedInUser` by default.
    public var user: UserID

    // MARK: - Dependencies and state

    let backend: InMemoryChatBackend
    let clock: any Clock
    private let random: LockedRandom
    /// The event feed's own generator.
    let feedRandom: LockedRandom
    /// Receipts' own generator: the receipt sender writes them while the feed's loop polls, and which of two requests
    /// made in one instant from two tasks reaches a shared generator first is up to the threads (simulation seed 24
    /// replayed one way or the other). Each of the two draws in its own order.
    let receiptRandom: LockedRandom
    /// Presence requests' own generator: a chat asking for a status every 30 s shifts no other request's draws.
    let presenceRandom = LockedRandom(seed: 0x5EE_0_5EE)
    private let observers = ObserverList<Bool>()
    var waits: [Int: TrackedTask<Bool>] = [:]
    var nextWaitKey = 0

    /// Puts a simulated network in front of `backend`.
    public init(
        backend: InMemoryChatBackend, clock: any Clock, random: LockedRandom, profile: NetworkProfile = .wifi,
        failRate: Double = 0, requestTimeout: Duration = .seconds(10), isOnline: Bool = true,
        feedRandom: LockedRandom = LockedRandom(seed: 0xFEED), receiptRandom: LockedRandom = LockedRandom(seed: 0x4EC)
    ) {
        self.backend = backend
        user = backend.signedInUser
        self.feedRandom = feedRandom
        self.receiptRandom = receiptRandom
        self.clock = clock
        self.random = random
        self.profile = profile
        self.failRate = min(1, max(0, failRate.isNaN ? 0 : failRate))
        self.requestTimeout = requestTimeout
        self.isOnline = isOnline
    }

    // MARK: - Connectivity

    /// Goes online or offline and tells the observers. Going offline fails every request on the way with
    /// `.offline`.
    public func setOnline(_ online: Bool) {
        guard online != isOnline else { return }
        isOnline = online
        if !online {
            let cut = waits.values
            waits.removeAll()
            for wait in cut { wait.cancel() }
        }
        observers.notify(online)
    }

    // MARK: - Round trips

    enum Fate {
        case delivered, requestLost, responseLost, serverError
    }

    /// Carries `work` (the call to the backend it is handed) over the simulated network, as described on the type.
    func roundTrip<Value>(_ work: @MainActor (InMemoryChatBackend) throws(DeliveryError) -> Value) async throws
        -> Value
    {
        try await trip { Result { () throws(DeliveryError) in try work(backend) }.mapError { $0 as any Error } }
    }

    /// One request's journey, as described on the type, whatever serves it: `apply` reaches the server (the
    /// in-process backend, or a real one over a socket) and is called only when the request arrives; its answer
    /// comes back after the rest of the latency, or is lost.
    func trip<Value>(_ apply: () async -> Result<Value, any Error>) async throws -> Value {
        try await trip(counted: true, random: random, held: .zero, apply)
    }

    /// `trip(_:)` with its knobs: `counted` adds it to `roundTrips`, `random` draws its fate (the event feed has a
    /// generator of its own, so listening shifts no other request's draws), and `held` (a long poll's hold) comes
    /// on top of the timeout a lost request or response waits out.
    func trip<Value>(
        counted: Bool, random: LockedRandom, held: Duration, _ apply: () async -> Result<Value, any Error>
    ) async throws -> Value {
        guard isOnline else { throw DeliveryError.offline }
        if counted { roundTrips += 1 }
        let start = clock.now
        let (latency, fate) = draw(from: random)
        let timeoutDeadline = start.addingTimeInterval(requestTimeout.timeInterval + held.timeInterval)
        try await wait(until: start.addingTimeInterval(latency / 2))
        // A backend that is down refuses the connection: the request never reaches it.
        if isRefusing { throw DeliveryError.unreachable }
        // A backend that hangs accepts the request and answers nothing: the caller gives up at the bound.
        if isHanging {
            try await wait(until: start.addingTimeInterval(held.timeInterval + unansweredBound.timeInterval))
            throw DeliveryError.unanswered
        }
        let arrived = clock.now
        switch fate {
        case .requestLost:
            try await wait(until: timeoutDeadline)
            throw DeliveryError.timeout
        case .serverError:
            try await wait(until: start.addingTimeInterval(latency))
            throw DeliveryError.server(code: 503)
        case .responseLost:
            _ = await apply()
            try await wait(until: timeoutDeadline)
            throw DeliveryError.timeout
        case .delivered:
            let answer = await apply()
            // The way back starts when the backend answers: a long poll held there answers long after it arrived.
            let atBackend = clock.now.timeIntervalSince(arrived)
            try await wait(until: start.addingTimeInterval(latency + atBackend))
            return try answer.get()
        }
    }

    /// Draws the request's latency (seconds) and fate; always three draws, so changing a profile or fail rate
    /// mid-run shifts no later random choice.
    func draw(from random: LockedRandom) -> (TimeInterval, Fate) {
        let (latencyUnit, lossUnit, failUnit) = random.withGenerator { ($0.nextUnit(), $0.nextUnit(), $0.nextUnit()) }
        let latency = max(0, profile.latency.timeInterval + profile.jitter.timeInterval * (2 * latencyUnit - 1))
        let fate: Fate
        if lossUnit < profile.lossRate / 2 {
            fate = .requestLost
        } else if lossUnit < profile.lossRate {
            fate = .responseLost
        } else if failUnit < failRate {
            fate = .serverError
        } else {
            fate = .delivered
        }
        return (latency, fate)
    }

    /// Sleeps on the clock until `deadline`; throws `.offline` if the device is or goes offline meanwhile, and
    /// `CancellationError` if the caller is cancelled.
    /// With `wakeEarly`, which is handed the way to end the sleep and returns the token that keeps it listening, the
    /// sleep may also end early without an error (a held long poll that has news). Such a hold is periodic work, so
    /// a jump of virtual time past many holds ends one, at the end of the jump, rather than every one in between
    /// (`Clock.sleepCoalescing`): ten idle years on a script's clock cost one poll, not ten million.
    func wait(
        until deadline: Date, wakeEarly: ((@escaping @MainActor () -> Void) -> ObservationToken)? = nil
    ) async throws {
        guard isOnline else { throw DeliveryError.offline }
        let key = nextWaitKey
        nextWaitKey += 1
        let clock = self.clock
        let periodic = wakeEarly != nil
        // A task of its own, so going offline can cut the sleep short; the caller waits for it through the ledger.
        let sleep = clock.task {
            (try? await periodic ? clock.sleepCoalescing(until: deadline) : clock.sleep(until: deadline)) != nil
        }
        waits[key] = sleep
        let early = wakeEarly? { sleep.cancel() }
        defer {
            waits[key] = nil
            early?.cancel()
        }
        let slept = await withTaskCancellationHandler {
            await sleep.value
        } onCancel: {
            sleep.cancel()
        }
        // Cut by going offline (which takes the wait away), even when the device is back online already: a request a
        // dropped connection cut off fails `.offline`, never as if its caller had given up.
        guard isOnline, waits[key] != nil else { throw DeliveryError.offline }
        if !slept, wakeEarly == nil || Task.isCancelled { throw CancellationError() }
    }
}

// MARK: - ConnectivityMonitor

extension NetworkConditioner: ConnectivityMonitor {
    /// The simulated path: the wifi profile is Wi-Fi; 3g and flaky are cellular (expensive); offline, none.
    public var networkPath: NetworkPath {
        guard isOnline else { return .unavailable }
        switch profile {
        case .wifi: return NetworkPath(status: .satisfied, type: .wifi)
        case .threeG, .flaky: return NetworkPath(status: .satisfied, type: .cellular, isExpensive: true)
        }
    }

    /// Calls `observer` with the current connectivity at once and then with every change.
    public func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        let token = observers.add(observer)
        observer(isOnline)
        return token
    }
}
