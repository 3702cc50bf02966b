// Fuzz target `router`: the server end to end but for the socket — request bytes through the HTTP parser into
// `ChatRouter` over a small in-memory backend, one fresh server per input.
//
// An input is one or more pipelined requests. `Authorization: Bearer NAME` is replaced by a live token of user NAME
// (signed in with the right password), so that the fuzzer can reach what needs a sign-in, as any of three users.
import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import Foundation

@MainActor
private final class Server {
    let backend: InMemoryChatBackend
    let sessions: SignInAuthority
    let router: ChatRouter
    private var tokens: [String: String] = [:]

    init() throws {
        let start = Date(timeIntervalSinceReferenceDate: 786_000_000)
        let users = [
            User(id: "me", displayName: "Me"), User(id: "ben", displayName: "Ben"),
            User(id: "ana", displayName: "Ana"),
        ]
        let messages = (1...4).map { index in
            Message(
                id: MessageID("m\(index)"), conversationID: index < 4 ? "c1" : "c2",
                senderID: index % 2 == 0 ? "me" : "ben", text: "hello \(index)",
                timestamp: start.addingTimeInterval(Double(index)), status: .sent)
        }
        let conversations = [
            Conversation(id: "c1", participantIDs: ["me", "ben"], lastMessage: messages[2], lastActivity: start + 3),
            Conversation(
                id: "c2", participantIDs: ["me", "ana"], name: "Ana", lastMessage: messages[3],
                lastActivity: start + 4),
            Conversation(id: "c3", participantIDs: ["ben", "ana"], lastActivity: start),
        ]
        let backend = try InMemoryChatBackend(
            seed: DemoData(signedInUser: "me", users: users, conversations: conversations, messages: messages),
            journal: InMemoryBackendJournal())
        let fileSystem = SimulatedFileSystem()
        sessions = try SignInAuthority(
            path: "/sessions.log", fileSystem: fileSystem, clock: ManualClock(), tokenLifetime: .seconds(3_600)
        ) { user, password in backend.user(user) != nil && password == "courier" }
        self.backend = backend
        router = ChatRouter(backend: backend, sessions: sessions)
    }

    /// `request` with `Bearer NAME` turned into NAME's token.
    func signingIn(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        for (index, field) in request.headers.enumerated() where field.0 == "authorization" {
            let name = field.1.hasPrefix("Bearer ") ? String(field.1.dropFirst(7)) : ""
            guard ["me", "ben", "ana"].contains(name) else { continue }
            request.headers[index].1 = "Bearer " + token(for: name)
        }
        return request
    }

    private func token(for name: String) -> String {
        if let token = tokens[name] { return token }
        guard case .granted(let token, _)? = try? sessions.signIn(UserID(name), password: "courier") else {
            fatalError("the fuzz server's sign-in failed")
        }
        tokens[name] = token
        return token
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var buffer = FuzzInput(data, size).rest
    MainActor.assumeIsolated {
        guard let server = try? Server() else { fatalError("the fuzz server did not start") }
        let parser = HTTPRequestParser(limits: HTTPLimits(maxHeaderBytes: 4_096, maxBodyBytes: 8_192))
        for _ in 0..<8 {
            guard let (request, consumed) = try? parser.parse(buffer) else { return }
            buffer.removeFirst(consumed)
            let response: HTTPResponse
            switch server.router.route(server.signingIn(request)) {
            case .answer(let answer): response = answer
            case .hold(let poll): response = server.router.answer(poll)
            }
            check(response, to: request)
        }
    }
    return 0
}

/// What every answer holds to: a status a client can act on (never a 500: nothing a client sends is the server's
/// fault), and a body that is JSON whenever there is one.
private func check(_ response: HTTPResponse, to request: HTTPRequest) {
    let line = "\(request.method) \(request.path)"
    require((200...599).contains(response.status), "status \(response.status) for \(line)")
    require(response.status != 500, "500 for \(line): \(String(decoding: response.body, as: UTF8.self))")
    if !response.body.isEmpty {
        let json = try? JSONSerialization.jsonObject(with: Data(response.body), options: .fragmentsAllowed)
        require(json != nil, "a body that is not JSON for \(line)")
    }
    _ = response.serialized
}
