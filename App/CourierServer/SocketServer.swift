import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on POSIX sockets, bound to 127.0.0.1 only: one thread per connection, at most
/// `limits.maxConnections` at once (one more is answered 503 and closed), so a slow client never blocks another.
/// Connections nobody has signed in on share `limits.maxAnonymousConnections` of them and may sit idle only
/// `limits.anonymousIdleTimeout`; a signed-in user holds at most `limits.maxConnectionsPerUser` (`ConnectionTable`).
///
/// Every read and write waits with `poll` and a deadline: a request must arrive within `limits.requestTimeout` of its
/// first byte (else 408 and the connection is dropped), a kept-alive connection is closed after `limits.idleTimeout`
/// of silence, and a client that does not read its answer is dropped. Bytes that are not a request are answered with
/// the parser's 4xx or 5xx and the connection is closed. The handler runs on the connection's thread, and no read
/// deadline runs while it does: a handler that holds its answer (a long poll) is not cut short by the request or the
/// idle timeout, and can ask its `ConnectionProbe` whether the client is still there. A request past `HTTPLimits`'
/// heavy sizes is marked `HTTPRequest.isHeavy`, and its answer is encoded at low priority (`LowPriority`).
public final class SocketServer: @unchecked Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Answers one request, able to ask whether its client is still connected.
    public typealias ProbingHandler = @Sendable (HTTPRequest, ConnectionProbe) -> HTTPResponse

    /// The port it listens on (the one the system chose when asked for 0).
    public let port: UInt16

    private let listener: Int32
    private let limits: HTTPLimits
    private let handler: ProbingHandler
    private let table: ConnectionTable
    private var acceptThread: Thread?

    /// Binds 127.0.0.1:`port` (0: a free port) and listens; throws `SocketError` when it cannot.
    public convenience init(port: UInt16, limits: HTTPLimits = HTTPLimits(), handler: @escaping Handler)
        throws(SocketError)
    {
        try self.init(port: port, limits: limits, probingHandler: { request, _ in handler(request) })
    }

    /// Binds 127.0.0.1:`port` (0: a free port) and listens; throws `SocketError` when it cannot. `probingHandler`
    /// is handed a probe of the request's connection.
    public init(port: UInt16, limits: HTTPLimits = HTTPLimits(), probingHandler: @escaping ProbingHandler)
        throws(SocketError)
    {
        self.limits = limits
        self.handler = probingHandler
        table = ConnectionTable(limits: limits)
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw SocketError(operation: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1, never another interface
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(operation: "bind", code: code)
        }
        guard listen(descriptor, 128) == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(operation: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    /// Starts accepting connections on a thread of its own.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "courier-server accept"
        acceptThread = thread
        thread.start()
    }

    /// Stops accepting and cuts every open connection (their threads end promptly).
    public func stop() {
        let open = table.stop()
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    /// Connections being served now.
    public var openConnections: Int { table.count }

    // MARK: - Accepting

    private func acceptLoop() {
        while true {
            var peer = sockaddr_in()
            var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let connection = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &peerLength) }
            }
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if table.isStopped { break }
                usleep(10_000)  // EMFILE and friends: back off instead of spinning
                continue
            }
            guard table.admit(connection) else {
                let busy = HTTPResponse(
                    status: 503, body: Self.errorBody("server", "too many connections"),
                    closesConnection: true)
                _ = write(busy.serialized, to: connection, deadline: deadline(after: .milliseconds(100)))
                close(connection)
                continue
            }
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
                // Darwin has no MSG_NOSIGNAL: a peer that hung up must not kill the server with SIGPIPE.
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let client = Self.address(of: peer)
            let thread = Thread { [self] in
                serve(connection, client: client)
                table.remove(connection)
                close(connection)
            }
            thread.name = "courier-server connection"
            thread.start()
        }
        close(listener)
    }

    // MARK: - One connection

    private func serve(_ connection: Int32, client: String) {
        let parser = HTTPRequestParser(limits: limits)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1_024)
        var requestDeadline: ContinuousClock.Instant?
        var idleDeadline = deadline(after: limits.anonymousIdleTimeout)
        let probe = ConnectionProbe(
            hungUp: { Self.hungUp(connection) },
            claim: { [table] user in
                table.claim(connection, for: user)
            })
        while true {
            do {
                if let (parsed, consumed) = try parser.parse(buffer) {
                    buffer.removeFirst(consumed)
                    var request = parsed
                    request.client = client
                    request.isHeavy =
                        consumed - request.body.count > limits.heavyHeaderBytes
                        || request.body.count > limits.heavyBodyBytes
                    // Evicted after its bytes were read (the anonymous places were full): it is shut down already.
                    guard table.beginAnswering(connection) else { return }
                    var response = handler(request, probe)
                    table.endAnswering(connection)
                    let anonymous = table.isAnonymous(connection)
                    // A refusal of a connection nobody signed in on closes it: its place goes back to the share.
                    response.closesConnection =
                        response.closesConnection || request.closesConnection || (anonymous && response.status >= 400)
                    // A heavy request's answer (a batch's stored messages) is encoded at low priority too.
                    let bytes =
                        request.isHeavy ? LowPriority.run { [response] in response.serialized } : response.serialized
                    guard write(bytes, to: connection, deadline: deadline(after: limits.requestTimeout)),
                        !response.closesConnection
                    else { return }
                    requestDeadline = buffer.isEmpty ? nil : deadline(after: limits.requestTimeout)
                    idleDeadline = deadline(after: anonymous ? limits.anonymousIdleTimeout : limits.idleTimeout)
                    continue
                }
            } catch {
                let refusal = HTTPResponse(
                    status: error.status, body: Self.errorBody("validation", error.reason), closesConnection: true)
                _ = write(refusal.serialized, to: connection, deadline: deadline(after: limits.requestTimeout))
                return
            }
            let waitUntil = requestDeadline ?? idleDeadline
            switch read(from: connection, into: &chunk, deadline: waitUntil) {
            case .bytes(let count):
                if buffer.isEmpty { requestDeadline = deadline(after: limits.requestTimeout) }
                buffer.append(contentsOf: chunk[0..<count])
            case .timedOut:
                if requestDeadline != nil {
                    let late = HTTPResponse(
                        status: 408, body: Self.errorBody("timeout", "the request did not arrive in time"),
                        closesConnection: true)
                    _ = write(late.serialized, to: connection, deadline: deadline(after: .milliseconds(100)))
                }
                return
            case .closed:
                return
            }
        }
    }

    private func deadline(after duration: Duration) -> ContinuousClock.Instant { .now + duration }
}
