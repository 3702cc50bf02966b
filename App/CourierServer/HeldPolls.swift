import Foundation

/// The long polls a server holds, each on its own connection thread: how many there are (at most `limit`, at most
/// `perUser` of one user's), and the flag each waits on, so that its user's feed growing (an observer on the main actor) or the server stopping wakes
/// it without a wake-up ever being lost between a check and a wait.
final class HeldPolls: @unchecked Sendable {
    /// How long a held poll sleeps between looks at whether its client is still connected.
    static let probeInterval: Duration = .milliseconds(250)

    private let condition = NSCondition()
    private let limit: Int
    private let perUser: Int
    /// The polls held, by key: whether each has been woken since it last looked.
    private var woken: [Int: Bool] = [:]
    /// Whose each held poll is, by key.
    private var owners: [Int: String] = [:]
    private var nextKey = 0
    private var stopped = false
    private var endings: [Wake: Int] = [:]

    /// Holds at most `limit` polls at once, at most `perUser` of one user's.
    init(limit: Int, perUser: Int = .max) {
        self.limit = max(0, limit)
        self.perUser = max(0, perUser)
    }

    /// Why a poll was not admitted.
    enum Refusal: Error {
        /// `limit` polls are held (or the server stopped).
        case full
        /// Its user holds `perUser` polls already.
        case userFull
    }

    /// How many polls are held now.
    var count: Int { condition.withLock { woken.count } }

    /// How many held polls have ended the way `wake` says.
    func ended(_ wake: Wake) -> Int { condition.withLock { endings[wake, default: 0] } }

    /// A place for one more poll of `user`, by key; refused when `limit` are held already, the server has stopped or
    /// `user` holds `perUser`.
    func admit(for user: String) -> Result<Int, Refusal> {
        condition.withLock {
            guard !stopped, woken.count < limit else { return .failure(.full) }
            guard owners.values.count(where: { $0 == user }) < perUser else { return .failure(.userFull) }
            let key = nextKey
            nextKey += 1
            woken[key] = false
            owners[key] = user
            return .success(key)
        }
    }

    /// Wakes every poll of `user` (its sign-in ended: each looks again and answers 401).
    func wakeAll(of user: String) {
        condition.withLock {
            for (key, owner) in owners where owner == user { woken[key] = true }
            condition.broadcast()
        }
    }

    /// Wakes poll `key` (a no-op once it is released).
    func wake(_ key: Int) {
        condition.withLock {
            guard woken[key] != nil else { return }
            woken[key] = true
            condition.broadcast()
        }
    }

    /// How a wait ended.
    enum Wake: Hashable {
        /// The poll was woken: look again.
        case woken
        /// The deadline passed, or the server stopped: answer whatever waits.
        case due
        /// The client hung up: answer nobody.
        case abandoned
    }

    /// Waits until poll `key` is woken, `deadline` passes, the server stops or `clientHungUp` says the client left
    /// (asked every `probeInterval`). A wake-up that came before the wait is not lost: it returns at once.
    func wait(_ key: Int, until deadline: ContinuousClock.Instant, clientHungUp: () -> Bool) -> Wake {
        while true {
            let wake: Wake? = condition.withLock {
                while true {
                    if stopped { return .due }
                    if woken[key] == true {
                        woken[key] = false
                        return .woken
                    }
                    let now = ContinuousClock.now
                    if now >= deadline { return .due }
                    let slice = min(now.duration(to: deadline), Self.probeInterval)
                    if !condition.wait(until: Date().addingTimeInterval(slice.timeInterval)) { return nil }
                }
            }
            if let wake { return wake }
            if clientHungUp() { return .abandoned }
        }
    }

    /// Gives poll `key`'s place back; it ended the way `ending` says (`.woken`: answered before its deadline).
    func release(_ key: Int, ending: Wake) {
        condition.withLock {
            guard woken.removeValue(forKey: key) != nil else { return }
            owners[key] = nil
            endings[ending, default: 0] += 1
        }
    }

    /// Wakes every poll for good (each answers what waits now) and admits no more.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
