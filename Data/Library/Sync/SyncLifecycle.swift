import CourierDomain

/// Whether the sync engine's one loop runs and where it stands, as a value: the engine holds one, and its
/// transitions are the engine's lifecycle. What the engine did with five flags and a handle (live, catching up,
/// paused for sign-in, stopped, the loop and its generation) is one `Phase`, so a loop that is live and catching up at
/// once, a paused engine with a loop, or a stopped one that starts again cannot be written down.
///
/// Whether the app is in the foreground is kept beside the phase, not in it: it is a fact about the app, which holds
/// in every phase and outlives every loop (the app goes to the background while paused for sign-in, and comes back
/// while stopped). The lifecycle keeps the two consistent: a loop starts only in the foreground, and going to the
/// background ends it.
///
/// The transitions never cancel a task themselves: one that drops a running loop hands its task back, and the engine
/// cancels it (in the order it always did: cancel first, then tell the screens).
struct SyncLifecycle {
    /// The loop's phase.
    enum Phase {
        /// No loop: not started yet, or it ended (offline, in the background); one starts when the device is online
        /// in the foreground.
        case waiting
        /// The loop asks for the events after the cursor without waiting; it has not seen the feed's end since it
        /// started (or since a batch came cut at its limit).
        case catchingUp(Loop)
        /// The loop saw the feed's end and holds no connection now: about to listen, or waiting to ask again after
        /// a failed request.
        case caughtUp(Loop)
        /// Caught up, with a live request open.
        case live(Loop)
        /// The feed refused the sign-in: no loop until the sign-in is renewed.
        case pausedForSignIn
        /// Stopped for good (the client is closing).
        case stopped
    }

    /// One run of the loop: its task, and the generation that names it, so a loop cancelled and still winding down
    /// cannot touch the phase of the one that replaced it.
    struct Loop {
        /// Which loop this is, counting from 1.
        let generation: Int
        /// The loop's task.
        let task: TrackedTask<Void>
    }

    /// Where the loop stands.
    private(set) var phase = Phase.waiting
    /// Whether the app is in the foreground.
    private(set) var isInForeground = true
    /// Requests that failed in a row (0 once one succeeds, and when a loop starts).
    private(set) var consecutiveFailures = 0
    /// How many times sign-in was renewed: an unauthorized answer to a request sent before the latest renewal is old
    /// news.
    private(set) var signInRenewals = 0
    /// Loops started so far: the last one's generation.
    private var loopsStarted = 0

    // MARK: - Reading

    /// The running loop, if any.
    var loop: Loop? {
        switch phase {
        case .catchingUp(let loop), .caughtUp(let loop), .live(let loop): loop
        case .waiting, .pausedForSignIn, .stopped: nil
        }
    }

    /// Whether a loop runs.
    var isRunning: Bool { loop != nil }

    /// Whether a live request is open.
    var isLive: Bool {
        if case .live = phase { true } else { false }
    }

    /// Whether the loop is catching up.
    var isCatchingUp: Bool {
        if case .catchingUp = phase { true } else { false }
    }

    /// Whether the feed refused the sign-in.
    var isPausedForSignIn: Bool {
        if case .pausedForSignIn = phase { true } else { false }
    }

    /// Whether the engine stopped for good.
    var isStopped: Bool {
        if case .stopped = phase { true } else { false }
    }

    /// Whether `generation` is the loop that runs.
    func isCurrent(_ generation: Int) -> Bool { loop?.generation == generation }

    // MARK: - Starting and ending loops

    /// Starts a loop, catching up first, when none runs, the engine is neither paused nor stopped, the app is in the
    /// foreground and the device `online`: `makeTask` makes its task, given the loop's generation. Returns whether
    /// a loop started.
    @discardableResult
    mutating func start(online: Bool, _ makeTask: (_ generation: Int) -> TrackedTask<Void>) -> Bool {
        guard case .waiting = phase, isInForeground, online else { return false }
        loopsStarted += 1
        consecutiveFailures = 0
        phase = .catchingUp(Loop(generation: loopsStarted, task: makeTask(loopsStarted)))
        return true
    }

    /// Ends the running loop now (offline): returns its task, to cancel.
    mutating func close() -> TrackedTask<Void>? {
        guard let loop else { return nil }
        phase = .waiting
        return loop.task
    }

    /// The loop `generation` ended by itself; one that was replaced meanwhile leaves its successor alone.
    mutating func loopEnded(_ generation: Int) {
        if isCurrent(generation) { phase = .waiting }
    }

    /// The app went to the background: the loop ends. Returns its task, to cancel.
    mutating func enterBackground() -> TrackedTask<Void>? {
        guard isInForeground else { return nil }
        isInForeground = false
        return close()
    }

    /// The app came back to the foreground. Returns whether it was in the background (a loop may start).
    mutating func enterForeground() -> Bool {
        guard !isInForeground else { return false }
        isInForeground = true
        return true
    }

    /// The engine stops for good. Returns the running loop's task, to cancel.
    mutating func stop() -> TrackedTask<Void>? {
        let task = loop?.task
        phase = .stopped
        return task
    }

    // MARK: - The loop's requests

    /// A request is about to be sent: one after the feed's end listens.
    mutating func listen() {
        if case .caughtUp(let loop) = phase { phase = .live(loop) }
    }

    /// A request succeeded.
    mutating func succeeded() { consecutiveFailures = 0 }

    /// A batch was applied: one cut at its limit (`hasMore`) means the loop catches up again, holding no connection;
    /// a whole one means it has seen the feed's end.
    mutating func batchApplied(hasMore: Bool) {
        guard let loop else { return }
        if hasMore {
            phase = .catchingUp(loop)
        } else if case .catchingUp = phase {
            phase = .caughtUp(loop)
        }
    }

    /// A request failed: no live connection stays open (a catch-up goes on catching up).
    mutating func requestFailed() {
        if case .live(let loop) = phase { phase = .caughtUp(loop) }
    }

    /// A failed request will be asked again after a backoff.
    mutating func willRetry() { consecutiveFailures += 1 }

    /// The feed refused the sign-in: the loop (the caller, which returns) ends until `signInRenewed()`.
    mutating func pauseForSignIn() {
        guard !isStopped else { return }
        phase = .pausedForSignIn
    }

    /// Sign-in was renewed. Returns whether the engine was paused for it (a loop may start).
    mutating func signInRenewed() -> Bool {
        signInRenewals += 1
        guard isPausedForSignIn else { return false }
        phase = .waiting
        return true
    }
}
