import CourierDomain
import CourierStore
import Foundation

/// Whether the backend answers, learned from the requests themselves and, while it does not, from a probe.
///
/// - Every request that could not connect (`DeliveryError.unreachable`: refused, host or network unreachable, name
///   not resolved) makes the backend unreachable; any answer — success or an error the backend gave — makes it
///   reachable (`ReachabilityTracking` reports both).
/// - While unreachable, with a path and in the foreground, it probes: waits 1 s, 2 s, 4 s … (±20 % jitter from its
///   own seeded generator), never more than `maxProbeInterval` (30 s) apart, each wait on the clock; the first
///   answer makes it reachable. A change of the device's path (`pathChanged()`) starts again from the fast probe;
///   in the background it does not probe, and the return probes at once.
/// - Observers hear every change (true: reachable), on the main actor — never two within a second: word that comes
///   sooner (an answer to a request sent before the loss) takes effect when the second is over, if still true.
@MainActor
public final class BackendReachability {
    /// What a probe asks of the backend: any cheap request; it throws when no answer came.
    public typealias Probe = @Sendable () async throws -> Void

    /// Whether the backend answered last (true until a request fails to connect).
    public private(set) var isReachable = true
    /// Probes sent since the backend was last reachable (and in all).
    public private(set) var probesSent = 0
    /// When the next probe goes (nil when none is planned).
    public private(set) var nextProbe: Date?
    /// The longest wait between two probes.
    public let maxProbeInterval: Duration

    private let clock: any Clock
    private let random: LockedRandom
    private var probe: Probe?
    private let observers = ObserverList<Bool>()
    private var probing: TrackedTask<Void>?
    private var failedProbes = 0
    private var hasPath = true
    private var isInForeground = true
    private var generation = 0
    /// When `isReachable` last changed.
    private var lastChange: Date?
    /// What the latest request said.
    private var wanted = true
    /// A change held back until `minimumChangeInterval` after the last one.
    private var deferredChange: TrackedTask<Void>?
    /// The shortest time between two changes of `isReachable`.
    public let minimumChangeInterval: Duration = .seconds(1)

    /// A backend believed reachable until a request says otherwise; probes go through `probe` (set later with
    /// `setProbe(_:)` when the request it needs is built after this).
    public init(
        clock: any Clock, probe: Probe? = nil, maxProbeInterval: Duration = .seconds(30),
        random: LockedRandom = LockedRandom(seed: 0x9B0B_E5)
    ) {
        self.clock = clock
        self.probe = probe
        self.maxProbeInterval = max(.seconds(1), maxProbeInterval)
        self.random = random
    }

    /// Sets what a probe asks.
    public func setProbe(_ probe: @escaping Probe) { self.probe = probe }

    /// Calls `observer` with every change (true: reachable), until the token is released.
    public func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Whether a probe waits or runs.
    public var isProbing: Bool { probing != nil }

    // MARK: - What requests say

    /// A request could not connect: the backend is unreachable, and probing starts (unless it runs).
    public func connectionFailed() {
        want(reachable: false)
    }

    /// The backend answered a request: it is reachable.
    public func answered() {
        guard !isReachable || probing != nil || deferredChange != nil else { return }
        want(reachable: true)
    }

    /// Takes what a request said. A change comes at once, unless the last one came less than
    /// `minimumChangeInterval` ago (an answer to a request sent before the loss, a failure of one sent before the
    /// return): then it comes when that interval is over, if the latest word still says so — what the screens call
    /// reachable never changes twice within it.
    private func want(reachable: Bool) {
        wanted = reachable
        guard reachable != isReachable else {
            deferredChange?.cancel()
            deferredChange = nil
            if reachable { stopProbing() }
            return
        }
        if let last = lastChange, clock.now < last.addingTimeInterval(minimumChangeInterval.timeInterval) {
            guard deferredChange == nil else { return }
            let clock = self.clock
            let due = last.addingTimeInterval(minimumChangeInterval.timeInterval)
            deferredChange = clock.task { [weak self] in
                guard (try? await clock.sleep(until: due)) != nil, let self else { return }
                self.deferredChange = nil
                if self.wanted != self.isReachable { self.change(to: self.wanted) }
            }
            return
        }
        change(to: reachable)
    }

    private func change(to reachable: Bool) {
        isReachable = reachable
        lastChange = clock.now
        failedProbes = 0
        if reachable { stopProbing() } else { startProbing() }
        observers.notify(reachable)
    }

    // MARK: - What the device says

    /// The device's path changed (`hasPath`: it has one now): the probe starts again from its fastest wait.
    public func pathChanged(hasPath: Bool) {
        self.hasPath = hasPath
        failedProbes = 0
        stopProbing()
        if !isReachable { startProbing() }
    }

    /// The app went to the background: no probing until it returns.
    public func enterBackground() {
        isInForeground = false
        stopProbing()
    }

    /// The app is back: an unreachable backend is probed at once.
    public func enterForeground() {
        guard !isInForeground else { return }
        isInForeground = true
        failedProbes = 0
        if !isReachable { startProbing(at: clock.now) }
    }

    /// Stops probing for good (the client is closing).
    public func stop() {
        probe = nil
        stopProbing()
        deferredChange?.cancel()
        deferredChange = nil
    }

    // MARK: - Probing

    /// The wait before probe `number` (1-based): 1 s doubling, ±20 % jitter (drawn now), at least 1 s and at most
    /// `maxProbeInterval`.
    public func delay(beforeProbe number: Int) -> TimeInterval {
        let base = min(maxProbeInterval.timeInterval, pow(2, Double(min(max(0, number - 1), 30))))
        let unit = random.nextUnit()
        // Never under a second: the banner that says the server is gone never flickers faster than that.
        return max(1, min(maxProbeInterval.timeInterval, base * (0.8 + 0.4 * unit)))
    }

    private func startProbing(at start: Date? = nil) {
        guard probing == nil, hasPath, isInForeground, probe != nil else { return }
        generation += 1
        let current = generation
        probing = clock.task { [weak self] in
            await self?.probeUntilAnswered(generation: current, first: start)
        }
    }

    private func stopProbing() {
        generation += 1
        probing?.cancel()
        probing = nil
        nextProbe = nil
    }

    private func probeUntilAnswered(generation current: Int, first: Date?) async {
        var at = first
        while current == generation, !isReachable, let probe {
            let due = at ?? clock.now.addingTimeInterval(delay(beforeProbe: failedProbes + 1))
            at = nil
            nextProbe = due
            do { try await clock.sleep(until: due) } catch { return }
            guard current == generation else { return }
            probesSent += 1
            do {
                try await probe()
                guard current == generation else { return }
                probing = nil
                answered()
                return
            } catch {
                guard current == generation, !Task.isCancelled else { return }
                // An answer that is an error still came from the backend: it is there.
                if let failure = error as? DeliveryError, !failure.isBackendUnreachable, failure != .offline,
                    failure != .timeout, failure != .cancelled
                {
                    probing = nil
                    answered()
                    return
                }
                failedProbes += 1
            }
        }
        if current == generation { probing = nil }
    }
}
