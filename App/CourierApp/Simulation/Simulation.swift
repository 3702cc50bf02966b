import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import CourierPresentation
import Foundation

/// A deterministic simulation of one seed: a random but reproducible session of the real app — the
/// `AppContainer` over a `World` on a `SimulatedFileSystem` and a `ManualClock` — with the invariants of
/// docs/design.md §2 checked after every step.
///
/// Others act too: the other participant of each simulation conversation sends and marks messages delivered or
/// read at the backend, and the user's other device sends and reads there (`Simulation+Peers.swift`); the app goes
/// to the background and back, opens chats and loads its list. A settle step brings the app to a quiet point and
/// checks that what it shows converges with a fresh fetch from the backend (`ConvergenceCheck`).
///
/// Everything runs on the main actor and waits on the one manual clock; every choice comes from the seed, so a seed
/// replays identically (its `traceHash` says so). A crash drops the app and the world mid-work without closing
/// anything, cuts the simulated disk's power (`crash()`: every unsynced write lost or torn) and reopens everything
/// from the disk. A restart closes the app and the world cleanly and reopens them. Either way the server's state
/// comes back from its journal on the disk, and the new process gets a new clock standing where the old one stood.
///
/// The dropped process's work must stop, as a killed process's does: its network goes offline (every request and
/// retry on the way fails) and its own clock runs two minutes on, so its tasks end and free the dropped objects.
@MainActor
public final class Simulation {
    /// Where the simulated data directory lives on the simulated disk.
    static let directory = URL(fileURLWithPath: "/courier-sim")

    let seed: UInt64
    var random: SeededRandom
    let fileSystem: SimulatedFileSystem
    /// The clock of the running process (each launch gets its own, starting where the last one stood).
    var clock = ManualClock()
    var world: World?
    var app: AppContainer?
    let invariants: SimulationInvariants
    var trace = SimulationTrace()
    var outcome: SimulationOutcome
    var conversations: [ConversationID] = []
    var composedCount = 0
    /// Messages injected at the backend by others (and the user's other device), for their texts.
    var peerCount = 0
    /// The compose time of each other device's last message (see `inject`).
    var peerClocks: [UserID: Date] = [:]
    private var token: ObservationToken?

    private init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
        fileSystem = SimulatedFileSystem(tornWrites: LockedRandom(seed: seed ^ 0x5EED_D15C))
        invariants = SimulationInvariants(since: clock.now)
        outcome = SimulationOutcome(seed: seed)
    }

    /// Runs `steps` random steps of `seed`; stops at the first invariant violation.
    public static func run(seed: UInt64, steps: Int) async -> SimulationOutcome {
        let simulation = Simulation(seed: seed)
        await simulation.run(steps: steps)
        return simulation.outcome
    }

    // MARK: - The run

    private func run(steps: Int) async {
        await launch()
        if let world {
            let all = world.backend.conversationIDs
            conversations = (0..<3).map { _ in all[Int(random.next() % UInt64(min(all.count, 12)))] }
            conversations = conversations.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }
        for step in 0..<steps where invariants.violations.isEmpty && app != nil {
            let line = await performRandomAction()
            if fileSystem.isPoweredOff { await crash(during: line) }
            outcome.steps = step + 1
            check()
            record("\(step) \(line)")
        }
        outcome.composed = composedCount
        outcome.startOvers = app?.client.syncEngine?.resets ?? 0
        outcome.violations = invariants.violations
        if !invariants.violations.isEmpty {
            outcome.violations.append("last steps:\n  " + trace.recent.joined(separator: "\n  "))
        }
        outcome.traceHash = trace.hash
        await tearDown()
    }

    /// Records a line of the trace with the state a user could observe.
    private func record(_ line: String) {
        guard let app, let world else { return trace.record(line + " | closed") }
        let pending = app.client.outbox.pending.map { "\($0.id.rawValue.prefix(8)):\($0.status.rawValue)" }
        let stored = conversations.map { world.backend.messageCount(in: $0) }
        trace.record(
            "\(line) | t=\(clock.now.timeIntervalSince1970) online=\(world.network.isOnline) pending=\(pending) "
                + "server=\(stored) banner=\(app.messaging.banner.state.banner.queuedCount)")
    }

    private func check() {
        guard let app, let world else { return }
        invariants.check(
            store: app.client.store, backend: world.backend,
            bannerCount: app.messaging.banner.state.banner.queuedCount, conversations: conversations)
    }

    // MARK: - App lives

    /// Opens the world and the app from the simulated disk, as a launch does.
    /// A power cut during the launch itself is one more crash; the launch starts over.
    func launch() async {
        while true {
            do {
                let world = try World(
                    directory: Self.directory, clockMode: .virtual, seed: seed, fresh: false, fileSystem: fileSystem,
                    clock: clock)
                self.world = world
                try startApp(in: world)
                break
            } catch {
                token = nil
                let dropped = world
                (app, world) = (nil, nil)
                guard fileSystem.isPoweredOff else {
                    invariants.fail("the stores did not reopen: \(error)")
                    return
                }
                let lost = fileSystem.crash()
                outcome.crashes += 1
                outcome.writesLost += lost.changesLost + lost.writesTorn
                trace.record("crash during launch: lost \(lost.changesLost), torn \(lost.writesTorn)")
                if let dropped { await retire(dropped) }
            }
        }
        await waitForWork()
    }

    private func startApp(in world: World) throws {
        let app = try AppContainer(world: world)
        self.app = app
        let recovery = app.client.store.recovery
        if recovery.corruptRecords > 0 { invariants.fail("the outbox reopened with damage: \(recovery)") }
        if recovery.truncatedBytes > 0 { outcome.tornTailsRecovered += 1 }
        invariants.appStarted(with: app.client.outbox.pending)
        let invariants = self.invariants
        token = app.client.outbox.observe { event in invariants.observe(event) }
    }

    /// A clean restart: the app and the world close their files, and everything is reopened from the disk.
    func restart() async throws {
        guard let app, let world else { return }
        token = nil
        try world.save()
        app.close()
        world.close()
        self.app = nil
        self.world = nil
        await retire(world)
        outcome.restarts += 1
        await launch()
    }

    /// A power cut: the app and the world are dropped without closing anything, the disk loses what was not
    /// durable, and everything reopens from it.
    func crash(during line: String) async {
        token = nil
        let dropped = world
        app = nil
        world = nil
        let lost = fileSystem.crash()
        if let dropped { await retire(dropped) }
        outcome.crashes += 1
        outcome.writesLost += lost.changesLost + lost.writesTorn
        trace.record(
            "crash during \(line): lost \(lost.changesLost), kept \(lost.changesKept), torn \(lost.writesTorn)")
        await launch()
    }

    /// Stops a dropped process's work: no network, and its clock runs on until its retries and timers are over. The
    /// next process starts on a new clock at the same instant.
    private func retire(_ world: World) async {
        world.network.setOnline(false)
        let old = clock
        clock = ManualClock(start: old.now)
        await old.advance(by: .seconds(120))
    }

    /// Runs the clock until the app is idle (every timer due on the way fires, in time order) or the power is cut.
    func waitForWork() async {
        guard let app else { return }
        let fileSystem = self.fileSystem
        _ = await clock.run(until: { app.isIdle || fileSystem.isPoweredOff }, limit: .seconds(6 * 3_600))
        if !fileSystem.isPoweredOff { try? world?.save() }
    }

    /// Closes the last app and lets the work of dropped apps (backoffs, timeouts, toasts) run out, so it frees.
    private func tearDown() async {
        token = nil
        app?.close()
        world?.close()
        app = nil
        if let world { await retire(world) }
        world = nil
    }
}
