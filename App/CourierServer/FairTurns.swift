import Foundation

/// Turns on the main actor, handed out fairly between tokens: at most one request presenting a given token waits
/// for, or holds, the main actor at a time (`ChatServer` runs each main-actor hop of a request through `run(as:_:)`).
///
/// Requests are applied one at a time on the main actor, in the order they ask. Without this, a user who sends from
/// 64 connections at once — polls refused and sent again, batches, lookups — puts 64 requests in that line for each
/// one of everyone else's, and an honest request waits behind all of them. Through `run(as:_:)`, a token's requests
/// queue behind each other on their own threads (blocked, spending no CPU), and the line holds at most one of each
/// token's: an honest request waits for at most one request of each other token in use. Requests without a token
/// are not queued here: admission bounds them (`HTTPLimits.maxAnonymousConnections`). A token's queue exists only
/// while one of its requests is in flight, so the state is bounded by the connections.
final class FairTurns: @unchecked Sendable {
    /// One token's queue: a semaphore of one, and how many requests hold or wait for it.
    private final class Slot: @unchecked Sendable {
        let turn = DispatchSemaphore(value: 1)
        var requests = 0
    }

    private let lock = NSLock()
    private var slots: [String: Slot] = [:]

    /// Tokens with a request in flight.
    var tokensInFlight: Int { lock.withLock { slots.count } }

    /// How many requests of `token` hold or wait for their turn.
    func requests(of token: String) -> Int { lock.withLock { slots[token]?.requests ?? 0 } }

    /// Runs `body` (which joins the main actor's line) at once when `token` is nil, else after every earlier request
    /// of the same token has had its turn; returns its value.
    func run<Value>(as token: String?, _ body: () -> Value) -> Value {
        guard let token else { return body() }
        let slot = lock.withLock {
            let slot = slots[token] ?? Slot()
            slots[token] = slot
            slot.requests += 1
            return slot
        }
        slot.turn.wait()
        defer {
            slot.turn.signal()
            lock.withLock {
                slot.requests -= 1
                if slot.requests == 0 { slots[token] = nil }
            }
        }
        return body()
    }
}
