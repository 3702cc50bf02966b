import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connections a `SocketServer` serves and whose each is: the admission rules of `HTTPLimits` in one place.
///
/// A connection is anonymous until a request on it presents a live token (`claim(_:for:)`); anonymous connections
/// share `maxAnonymousConnections` places, so nobody without a token can take the places signed-in users need. When
/// the anonymous places are full, a new connection takes the place of the anonymous connection that has waited
/// longest and is not being answered (it is shut down), so a flood of token-less connections cannot keep a newcomer
/// out. A signed-in user holds at most `maxConnectionsPerUser` connections.
final class ConnectionTable: @unchecked Sendable {
    private struct Peer {
        var user: String?
        var opened: ContinuousClock.Instant
        var answering = false
        var evicted = false
    }

    private let lock = NSLock()
    private let limits: HTTPLimits
    private var peers: [Int32: Peer] = [:]
    private var stopped = false

    /// Admits connections under `limits`.
    init(limits: HTTPLimits) { self.limits = limits }

    /// Connections being served now.
    var count: Int { lock.withLock { peers.count } }

    /// Whether the table has stopped (no more admissions).
    var isStopped: Bool { lock.withLock { stopped } }

    /// Admits `connection` as anonymous, making room by shutting the longest-waiting idle anonymous connection down
    /// when the anonymous places are full; false when it cannot be admitted (the server is full, or stopped).
    func admit(_ connection: Int32) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            let anonymous = peers.filter { $0.value.user == nil && !$0.value.evicted }
            if anonymous.count >= limits.maxAnonymousConnections {
                let idle = anonymous.filter { !$0.value.answering && !Self.hasPendingBytes($0.key) }
                guard let oldest = idle.min(by: { $0.value.opened < $1.value.opened }) else { return false }
                peers[oldest.key]?.evicted = true
                shutdown(oldest.key, Int32(SHUT_RDWR))
            }
            guard peers.values.filter({ !$0.evicted }).count < limits.maxConnections else { return false }
            peers[connection] = Peer(opened: .now)
            return true
        }
    }

    /// Forgets `connection` (its thread is about to close it).
    func remove(_ connection: Int32) { lock.withLock { _ = peers.removeValue(forKey: connection) } }

    /// Marks `connection` as signed in by `user`; false when `user` holds `maxConnectionsPerUser` others already.
    func claim(_ connection: Int32, for user: String) -> Bool {
        lock.withLock {
            guard peers[connection]?.user != user else { return true }
            let held = peers.values.filter { $0.user == user && !$0.evicted }.count
            guard held < limits.maxConnectionsPerUser else { return false }
            peers[connection]?.user = user
            return true
        }
    }

    /// Whether nobody has signed in on `connection` yet.
    func isAnonymous(_ connection: Int32) -> Bool { lock.withLock { peers[connection]?.user == nil } }

    /// Marks `connection` as being answered (never evicted meanwhile); false when it was evicted already (between
    /// the read of its request and now), so it must not be answered: eviction and answering never overlap.
    func beginAnswering(_ connection: Int32) -> Bool {
        lock.withLock {
            guard let peer = peers[connection], !peer.evicted else { return false }
            peers[connection]?.answering = true
            return true
        }
    }

    /// Marks `connection` as answered: idle again, evictable while anonymous.
    func endAnswering(_ connection: Int32) { lock.withLock { peers[connection]?.answering = false } }

    /// Stops admitting; the connections open now, to be cut.
    func stop() -> [Int32] {
        lock.withLock {
            guard !stopped else { return [] }
            stopped = true
            return Array(peers.keys)
        }
    }

    /// Whether bytes wait unread on `connection` (a request on its way: not idle).
    private static func hasPendingBytes(_ connection: Int32) -> Bool {
        var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }
}
