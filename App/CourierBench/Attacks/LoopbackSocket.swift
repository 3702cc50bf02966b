import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw TCP client to 127.0.0.1 for sending what no well-behaved HTTP client sends (the hostile-client tests and
/// `courier-bench attacks`). Every wait is bounded.
public final class LoopbackSocket: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`, from the loopback address 127.0.0.`source` (another client, as far as the
    /// server can tell); nil when the connection is refused.
    public init?(port: UInt16, source: UInt8 = 1) {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        if source != 1 {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = (UInt32(0x7F00_0000) | UInt32(source)).bigEndian
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Sends `text` (ignoring a peer that already closed).
    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends `bytes`.
    public func send(_ bytes: [UInt8]) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        _ = bytes.withUnsafeBytes { sendBytes(descriptor, $0.baseAddress, $0.count, flags) }
    }

    /// Everything received until the server closes the connection or `timeout` passes, as text.
    public func readUntilClosed(timeout: Duration = .seconds(3)) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) >= 0 else { break }
            if entry.revents == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += chunk[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// One whole answer (its head and its `Content-Length` body), without waiting for the connection to close: its
    /// status (nil when none came within `timeout`, or the connection closed first) and its text.
    public func readAnswer(timeout: Duration = .seconds(10)) -> (status: Int?, text: String) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = String(decoding: received, as: UTF8.self)
            if let head = text.range(of: "\r\n\r\n") {
                let length =
                    text[..<head.lowerBound].lowercased().components(separatedBy: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - text[..<head.upperBound].utf8.count >= length {
                    return (Self.status(of: text), text)
                }
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) >= 0 else { break }
            if entry.revents == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return (nil, String(decoding: received, as: UTF8.self))
    }

    /// Whether the server has closed the connection, looking for at most `timeout` (bytes still coming are read and
    /// dropped).
    public func isClosedByServer(within timeout: Duration = .seconds(5)) -> Bool {
        readUntilClosed(timeout: timeout).closed
    }

    /// The status code of the first response in `text`, if any.
    public static func status(of text: String) -> Int? {
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.1") else { return nil }
        return Int(parts[1])
    }
}

/// `send(2)`, under a name the method of the same name does not shadow.
private func sendBytes(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, pointer, count, flags)
}
