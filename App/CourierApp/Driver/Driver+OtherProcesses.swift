import CourierDomain
import CourierOneShot
import Foundation

/// Messages other processes compose into the data directory's shared outbox (a one-shot `courier … send`, as an
/// app extension's) reach the running driver's screens and its sending policy without a relaunch.
extension Driver {
    /// How often the system-clock driver looks: within a second of a one-shot send, it shows the message.
    static let otherProcessesInterval: Duration = .milliseconds(500)

    /// Takes in what other processes changed in the outbox: the open chat, the Offline Queue and the banner show it
    /// through the outbox's events, and the policy sends it. A row that appears in the open chat is printed as its
    /// row, as one arriving from someone else is (not with `--json`: one object per command there). Cheap when
    /// nothing changed (a size check).
    func takeInOtherProcessesWork() {
        let chat = app.chat
        // The rows as they were (the array is shared, not copied); indexed only when something changed, so a
        // command costs no pass over a long chat.
        let before = chat?.state.messages ?? []
        let changes = app.client.outbox.takeInForeignChanges()
        guard let chat, !options.json, !changes.changed.isEmpty else { return }
        let shown = Set(before.map(\.id))
        let changed = Set(changes.changed.map(\.id))
        for row in chat.state.messages where changed.contains(row.id) && !shown.contains(row.id) {
            write(Self.line(for: row))
        }
    }

    /// Under the system clock, looks twice a second between commands; the virtual clock looks at each command only
    /// (time there moves by commands, and a timer of its own would change every script's timeline).
    func watchOtherProcesses() {
        guard otherProcessesWatch == nil else { return }
        let clock = world.clock
        otherProcessesWatch = clock.task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: Self.otherProcessesInterval) } catch { return }
                guard let self else { return }
                self.takeInOtherProcessesWork()
                self.watcher.follow(self.app)
            }
        }
    }
}
