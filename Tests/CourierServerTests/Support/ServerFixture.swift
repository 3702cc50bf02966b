import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation

/// A `ChatServer` on a free loopback port over a temporary data directory, with a client signed in as `me`.
@MainActor
final class ServerFixture {
    let directory: TemporaryDirectory
    let server: ChatServer
    let client: HTTPChatClient

    init(limits: HTTPLimits = HTTPLimits(requestTimeout: .milliseconds(300), idleTimeout: .seconds(2)),
         clientTimeout: Duration = .seconds(5)) throws {
        directory = try TemporaryDirectory(prefix: "courier-server")
        server = try ChatServer(directory: directory.url, port: 0, limits: limits)
        client = HTTPChatClient(baseURL: server.url, user: "me", timeout: clientTimeout)
    }

    /// Stops the server and removes its directory.
    func tearDown() {
        server.stop()
        directory.remove()
    }

    /// A message from `me` composed now.
    static func message(_ text: String, in conversation: ConversationID = "c2", at seconds: Double = 900_000_000)
        -> Message
    {
        Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: conversation, senderID: "me", text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: .sending)
    }
}
