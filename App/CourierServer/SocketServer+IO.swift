import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Bytes on a socket, each wait bounded by a deadline

extension SocketServer {
    enum ReadResult {
        case bytes(Int)
        case timedOut, closed
    }

    func read(from connection: Int32, into chunk: inout [UInt8], deadline: ContinuousClock.Instant)
        -> ReadResult
    {
        while true {
            guard wait(connection, for: Int16(POLLIN), until: deadline) else { return .timedOut }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if errno == EINTR || errno == EAGAIN { continue }
            return .closed
        }
    }

    func write(_ bytes: [UInt8], to connection: Int32, deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard wait(connection, for: Int16(POLLOUT), until: deadline) else { return false }
            let sent = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress?.advanced(by: offset), bytes.count - offset, Self.sendFlags)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EINTR || errno == EAGAIN) {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Waits until `connection` is ready for `events` or `deadline` passes (false); a hang-up counts as ready, so the
    /// following read or write sees it.
    func wait(_ connection: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let milliseconds = Int32(
                min(
                    remaining.components.seconds * 1_000
                        + remaining.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            var entry = pollfd(fd: connection, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }

    /// Whether the peer of `connection` has closed it or it broke, without waiting and without taking any byte it
    /// sent (a pipelined request stays for the next parse).
    static func hungUp(_ connection: Int32) -> Bool {
        var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        if entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    /// The peer's address as text (`127.0.0.1`): who the client is, for what is counted per client.
    static func address(of peer: sockaddr_in) -> String {
        let host = UInt32(bigEndian: peer.sin_addr.s_addr)
        return "\(host >> 24).\(host >> 16 & 0xFF).\(host >> 8 & 0xFF).\(host & 0xFF)"
    }

    #if canImport(Glibc)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        static let sendFlags: Int32 = 0
    #endif

    static func errorBody(_ error: String, _ reason: String) -> [UInt8] {
        let text = "{\"error\":\(jsonString(error)),\"reason\":\(jsonString(reason))}"
        return Array(text.utf8)
    }

    static func jsonString(_ text: String) -> String {
        guard let data = try? JSONEncoder().encode(text), let encoded = String(data: data, encoding: .utf8) else {
            return "\"\""
        }
        return encoded
    }
}
