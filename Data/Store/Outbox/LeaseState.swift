import CourierDomain

/// How an outbox stands with the lease of a shared outbox (docs/design.md §2.8), as a value: the outbox holds one.
/// Whether it lacks the lease, whether it wants to keep it while idle (not in the background), and the messages that
/// wait for it to be this outbox's. Tested alone (`LeaseStateTests`).
struct LeaseState {
    /// Whether the outbox lacks the lease — another process holds it, or the app in the background let it go — so
    /// that it sends nothing until it takes it again.
    var isSuspended = false
    /// Whether the outbox keeps the lease while idle: false between `suspend()` and `resume()`.
    var wantsLease = true
    /// Messages composed online without the lease, and those the store queued again at open while another process
    /// held it: sent once the lease is this outbox's.
    var cutOff: Set<MessageID> = []

    /// Whether the outbox lets the lease go once nothing is being sent: it holds the lease and does not want it.
    var letsGoWhenIdle: Bool { !wantsLease && !isSuspended }

    /// Whether the outbox takes the lease when it is free: it lacks it, and wants it back or (`toSend`) has a send
    /// to make.
    func takes(toSend: Bool) -> Bool { isSuspended && (wantsLease || toSend) }

    /// The messages cut off, to send now that the lease is this outbox's; none wait any more.
    mutating func takeCutOff() -> Set<MessageID> {
        defer { cutOff = [] }
        return cutOff
    }
}
