import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import CourierPresentation
import Foundation

extension Simulation {
    /// What a step may do, with its weight in the draw.
    private enum Action: CaseIterable {
        case send, flicker, profile, failRate, edit, delete, sendNow, sendAll, retry, toast, policy, authExpire
        case authRenew, restart, crash, powerCut, advance
        // Other people, the user's other device, the app's screens and lifecycle, and the quiet point.
        case peerSend, peerReceipt, otherDevice, lifecycle, openChat, loadList, trimFeeds, settle

        /// The user's own actions keep about three quarters of the draw, so the outbox's invariants get their share.
        var weight: Int {
            switch self {
            case .send: 30
            case .flicker: 10
            case .advance, .peerSend: 8
            case .edit, .sendAll, .toast, .crash, .peerReceipt, .settle: 5
            case .delete, .sendNow, .retry, .policy, .powerCut, .authRenew: 4
            case .profile, .failRate, .restart, .otherDevice, .lifecycle, .openChat: 3
            case .authExpire, .loadList: 2
            case .trimFeeds: 1
            }
        }
    }

    /// Draws and carries out one action; returns its trace line. Most actions then let the work they started
    /// finish; some leave it in flight so that the next action (a crash, say) lands mid-work.
    func performRandomAction() async -> String {
        let total = Action.allCases.reduce(0) { $0 + $1.weight }
        var draw = pick(total)
        var chosen = Action.send
        for action in Action.allCases {
            if draw < action.weight {
                chosen = action
                break
            }
            draw -= action.weight
        }
        let line = await perform(chosen)
        guard app != nil, !fileSystem.isPoweredOff else { return line }
        if pick(5) == 0 {
            await clock.advance(by: .milliseconds(pick(400)))
        } else {
            await waitForWork()
        }
        return line
    }

    // swiftlint:disable:next cyclomatic_complexity
    private func perform(_ action: Action) async -> String {
        guard let app, let world else { return "no app" }
        let messaging = app.messaging
        switch action {
        case .send:
            return send(app.client.outbox)
        case .flicker:
            world.network.setOnline(!world.network.isOnline)
            if pick(4) == 0 { world.network.setOnline(!world.network.isOnline) }
            return "network \(world.network.isOnline ? "online" : "offline")"
        case .profile:
            world.network.profile = [NetworkProfile.wifi, .threeG, .flaky][pick(3)]
            return "profile \(world.network.profile.rawValue)"
        case .failRate:
            world.network.failRate = [0, 0, 0.1, 0.3, 1][pick(5)]
            return "fail-rate \(world.network.failRate)"
        case .edit:
            return edit(messaging.queue)
        case .delete:
            return delete(messaging.queue)
        case .sendNow:
            guard let row = randomElement(messaging.queue.state.rows) else { return "send now: nothing queued" }
            return attempt("send now \(row.id)") { try messaging.queue.sendNow(messageID: row.id) }
        case .sendAll:
            if pick(2) == 0 { messaging.banner.sendAll() } else { messaging.queue.sendAll() }
            return "send all"
        case .retry:
            return retry(app)
        case .toast:
            return toast(messaging.banner)
        case .policy:
            let outbox = app.client.outbox
            outbox.policy = outbox.policy == .manual ? .automatic : .manual
            world.settings.policy = outbox.policy
            return "policy \(outbox.policy.rawValue)"
        case .authExpire:
            world.backend.isSignInExpired = true
            return "auth expire"
        case .authRenew:
            world.backend.isSignInExpired = false
            renewSignIn(app)
            return "auth renew"
        case .restart:
            do { try await restart() } catch { return "restart failed: \(error)" }
            return "restart"
        case .crash:
            await crash(during: "a step")
            return "crash"
        case .powerCut:
            let budget = pick(25)
            fileSystem.cutPower(afterOperations: budget)
            return "power cut after \(budget) operations"
        case .advance:
            // Up to an hour: every 60-second refresh on the way is a wake-up, so a day costs 1,440 of them.
            let jump: [Duration] = [
                .milliseconds(500), .seconds(1), .seconds(4), .seconds(10), .seconds(60), .seconds(3_600),
            ]
            let duration = jump[pick(jump.count)]
            await clock.advance(by: duration)
            return "advance \(duration)"
        case .peerSend: return peerSend(world)
        case .peerReceipt: return peerReceipt(world)
        case .otherDevice: return otherDevice(world)
        case .lifecycle: return switchLifecycle(app)
        case .openChat:
            let conversation = conversations[pick(conversations.count)]
            let opened = app.openChat(conversation) != nil
            return opened ? "open chat \(conversation)" : "open chat \(conversation): unknown"
        case .loadList:
            app.conversations.list.load()
            return "load list"
        case .trimFeeds:
            return attempt("trim feeds") { try world.backend.trimFeeds() }
        case .settle:
            return await settleAndCheck()
        }
    }

    /// Sign-in renewed, as the app does it (one call on the client): sending, the writes and listening resume.
    func renewSignIn(_ app: AppContainer) {
        app.client.signInRenewed()
    }

    // MARK: - Actions with a result to remember

    private func send(_ outbox: DurableOutbox) -> String {
        let conversation = conversations[pick(conversations.count)]
        composedCount += 1
        let text = "s\(seed)-m\(composedCount)"
        do {
            let message = try outbox.compose(text: text, in: conversation)
            invariants.composed(message)
            return "send \(conversation) \(message.id) \(message.status.rawValue)"
        } catch {
            return "send \(conversation) refused: \(error)"
        }
    }

    private func edit(_ queue: OfflineQueueViewModel) -> String {
        guard let row = randomElement(queue.state.rows) else { return "edit: nothing queued" }
        let text = "edited-\(composedCount)-\(pick(1_000))"
        do {
            try queue.edit(messageID: row.id, text: text)
            invariants.edited(row.id, to: text, acknowledged: true)
            return "edit \(row.id)"
        } catch {
            if fileSystem.isPoweredOff { invariants.edited(row.id, to: text, acknowledged: false) }
            return "edit \(row.id) refused: \(error)"
        }
    }

    private func delete(_ queue: OfflineQueueViewModel) -> String {
        guard let row = randomElement(queue.state.rows) else { return "delete: nothing queued" }
        do {
            try queue.delete(messageID: row.id)
            invariants.deleted(row.id, acknowledged: true)
            return "delete \(row.id)"
        } catch {
            if fileSystem.isPoweredOff { invariants.deleted(row.id, acknowledged: false) }
            return "delete \(row.id) refused: \(error)"
        }
    }

    private func retry(_ app: AppContainer) -> String {
        let failed = app.client.outbox.pending.filter { $0.status == .failed }
        guard let message = randomElement(failed) else { return "retry: nothing failed" }
        let chat =
            app.chat?.state.conversationID == message.conversationID
            ? app.chat : app.openChat(message.conversationID)
        guard let chat else { return "retry: no chat for \(message.conversationID)" }
        return attempt("retry \(message.id)") { try chat.retry(messageID: message.id) }
    }

    private func toast(_ banner: ConnectivityBannerViewModel) -> String {
        guard banner.state.toast.visible else { return "toast: none showing" }
        switch pick(3) {
        case 0: return attempt("toast yes") { try banner.acceptToast() }
        case 1: return attempt("toast review") { try banner.reviewToast() }
        default: return attempt("toast dismiss") { try banner.dismissToast() }
        }
    }

    // MARK: - Helpers

    private func attempt(_ line: String, _ body: () throws -> Void) -> String {
        do {
            try body()
            return line
        } catch {
            return "\(line) refused: \(error)"
        }
    }

    /// A seeded draw in 0..<bound.
    func pick(_ bound: Int) -> Int {
        Int(random.next() % UInt64(max(1, bound)))
    }

    private func randomElement<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[pick(items.count)]
    }
}
