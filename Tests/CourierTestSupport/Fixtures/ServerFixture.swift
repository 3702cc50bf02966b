import CourierData
import CourierDomain
import CourierHTTP
import CourierServer
import Foundation

/// A `ChatServer` on a free loopback port over a temporary data directory, with a client signed in as `me`; torn
/// down when the test ends (its suite removes temporary directories), or before by `tearDown()`.
@MainActor
public final class ServerFixture {
    /// The server's data directory.
    public let directory: TemporaryDirectory
    /// The server, listening.
    public let server: ChatServer
    /// A client of the server, signed in as `me` on its first request.
    public let client: HTTPChatClient
    /// How long a client of the fixture waits for an answer before it gives up.
    private let clientTimeout: Duration
    private var isTornDown = false

    /// Starts a server with `limits` (short timeouts by default, for tests of them) and `contentLimits`, its
    /// development routes answered when `devRoutes`, on `clock` (what its sessions, throttles and rates count time
    /// by), and a client whose requests give up after `clientTimeout`: long by default, because the server answers on
    /// the main actor, which a whole-suite run on two cores shares with every other suite for tens of seconds (CI of
    /// stop 43: a 15 s bound ran out on a plain send).
    public init(
        limits: HTTPLimits = HTTPLimits(requestTimeout: .milliseconds(300), idleTimeout: .seconds(2)),
        contentLimits: ContentLimits = ContentLimits(), devRoutes: Bool = false, clock: any Clock = SystemClock(),
        clientTimeout: Duration = .seconds(120)
    ) throws {
        directory = try TemporaryDirectory(prefix: "courier-server")
        server = try ChatServer(
            directory: directory.url, port: 0, limits: limits, contentLimits: contentLimits, devRoutes: devRoutes,
            clock: clock)
        self.clientTimeout = clientTimeout
        client = HTTPChatClient(baseURL: server.url, user: "me", password: "courier", timeout: clientTimeout)
        TemporaryDirectory.closeWhenTestEnds { [self] in await tearDown() }
    }

    /// A fresh token of `user`, granted by the server's sessions directly (for raw-socket requests).
    public func token(for user: UserID = "me") throws -> String {
        guard case .granted(let token, _) = try server.sessions.signIn(user, password: ChatServer.demoPassword) else {
            throw DeliveryError.unauthorized
        }
        return token
    }

    /// A client of the same server signed in as `user` (Ben shares `c2` with `me`), with the fixture's client timeout.
    public func client(as user: UserID) -> HTTPChatClient {
        HTTPChatClient(baseURL: server.url, user: user, password: "courier", timeout: clientTimeout)
    }

    /// Waits on the wall clock, 5 ms at a time, until `condition` holds (true) or `attempts` looks have failed
    /// (false): for what a real socket takes real time to do, such as a poll reaching the server. Looks are counted,
    /// not time, so a loaded machine that stalls the test for a while does not use the budget up.
    public func wait(until condition: () -> Bool, attempts: Int = 1_000) async -> Bool {
        for _ in 0..<attempts {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// Stops the server and removes its directory (a second time does nothing).
    public func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        server.stop()
        directory.remove()
    }

    /// A message from `me` composed now.
    public static func message(
        _ text: String, in conversation: ConversationID = "c2", at seconds: Double = 789_000_000
    ) -> Message {
        Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: conversation, senderID: "me", text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: .sending)
    }
}
