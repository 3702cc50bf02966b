import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import Foundation

extension Simulation {
    // MARK: - The quiet point

    /// How much virtual time settling may take before the app counts as stuck.
    static let settleLimit: Duration = .seconds(3_600)

    /// Brings the app to a quiet point and checks the convergence invariant there (`ConvergenceCheck`): online on
    /// a loss-free network with no injected failures, signed in, in the foreground, every queued and failed message
    /// sent again (Send All); then the clock runs until the app is idle, its feed caught up and listening, its
    /// receipts delivered and its outbox holding failed messages at most. A power cut on the way ends the step
    /// without a check (the crash that follows relaunches the app); an app that does not settle within
    /// `settleLimit` breaks the invariant.
    func settleAndCheck() async -> String {
        guard let app, let world else { return "settle: no app" }
        world.network.setOnline(true)
        world.network.profile = .wifi
        world.network.failRate = 0
        world.backend.isSignInExpired = false
        renewSignIn(app)
        if !(app.client.syncEngine?.isInForeground ?? true) { _ = switchLifecycle(app) }
        app.messaging.banner.sendAll()
        let fileSystem = fileSystem
        let settled = await clock.run(
            until: { fileSystem.isPoweredOff || Self.isSettled(app, world) }, limit: Self.settleLimit)
        if fileSystem.isPoweredOff { return "settle: power cut" }
        guard settled else {
            invariants.fail("the app did not settle within \(Self.settleLimit): \(Self.unsettled(app, world))")
            return "settle: stuck"
        }
        try? world.save()
        let shown = Self.shownScreens(app)
        let fresh = BackendFetch(
            backend: world.backend, user: AppContainer.demoUser, chats: shown.chat.map { [$0.conversation] } ?? [])
        for violation in ConvergenceCheck.violations(shown: shown, fresh: fresh) {
            invariants.fail("convergence: \(violation)")
        }
        outcome.convergenceChecks += 1
        let chat = shown.chat.map { "chat \($0.conversation) \($0.rows.count) rows" } ?? "no chat"
        return "settle: \(chat), list \(shown.list.count) rows, t=\(clock.now.timeIntervalSince1970)"
    }

    /// Whether the app is at the quiet point `settleAndCheck` waits for.
    private static func isSettled(_ app: AppContainer, _ world: World) -> Bool {
        guard let sync = app.client.syncEngine else { return true }
        let outbox = app.client.outbox
        return app.isIdle && sync.isLive && sync.consecutiveFailures == 0
            && sync.cursor == world.backend.feedEndPosition(for: AppContainer.demoUser) && sync.receipts.count == 0
            && outbox.pendingCount(of: .queued) == 0 && outbox.pendingCount(of: .sending) == 0
    }

    /// What keeps the app from its quiet point, as text (empty when it is there).
    private static func unsettled(_ app: AppContainer, _ world: World) -> String {
        guard let sync = app.client.syncEngine else { return "no sync engine" }
        var reasons: [String] = []
        if !app.isIdle { reasons.append("work still runs") }
        if !sync.isLive {
            let loop = sync.isRunning ? (sync.isCatchingUp ? "catching up" : "running") : "stopped"
            let paused = sync.isPausedForSignIn ? ", paused for sign-in" : ""
            reasons.append("not listening (loop \(loop)\(paused), foreground \(sync.isInForeground))")
        }
        if sync.consecutiveFailures > 0 { reasons.append("\(sync.consecutiveFailures) feed requests failed") }
        let end = world.backend.feedEndPosition(for: AppContainer.demoUser)
        if sync.cursor != end { reasons.append("cursor \(sync.cursor?.description ?? "none") of \(end)") }
        if sync.receipts.count > 0 { reasons.append("\(sync.receipts.count) receipts queued") }
        let sending = app.client.outbox.pending.filter { $0.status != .failed }
        if !sending.isEmpty { reasons.append("\(sending.count) messages neither sent nor failed") }
        return reasons.joined(separator: ", ")
    }

    /// What the screens show now, and what the device still owes the backend.
    private static func shownScreens(_ app: AppContainer) -> ShownScreens {
        let queuedReads = (app.client.syncEngine?.receipts.allWrites ?? [])
            .filter { $0.kind == SyncEngine.receiptKind }
            .compactMap { try? $0.decodePayload(Receipt.self) }
            .filter { $0.kind == .read }
            .map(\.conversationID)
        let chat = app.chat.map { chat in
            ShownScreens.OpenChat(conversation: chat.state.conversationID, rows: chat.state.messages)
        }
        return ShownScreens(
            chat: chat,
            list: app.conversations.list.state.items, queuedReads: Set(queuedReads),
            pending: app.client.outbox.pending)
    }
}
