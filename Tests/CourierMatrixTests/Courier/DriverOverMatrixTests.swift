import CourierTestSupport
import Foundation
import Testing

/// The `courier` driver with `--matrix`: every command against a real Synapse, two drivers chatting through it, and a
/// client nobody here wrote on the other side.
@Suite(.removesTemporaryDirectories, .timeLimit(.minutes(5)))
struct DriverOverMatrixTests {
    private func courier(_ server: SynapseServer, _ account: MatrixAccount, _ directory: URL, _ script: String)
        throws -> ProductRun
    {
        let file = directory.appendingPathExtension("script")
        try Data(script.utf8).write(to: file)
        return try ProductBinary.run(
            try ProductBinary.url("courier", environment: "COURIER_BINARY"),
            [
                "--data-dir", directory.path, "--matrix", server.baseURL.absoluteString, "--user", account.userID,
                "--password", account.password, "--script", file.path,
            ])
    }

    @Test func twoDriversChatThroughOneHomeserverAndAnotherClientReadsThemInOrderOnce() async throws {
        // Given me and Ben in one room, each with a driver of their own
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let folder = try TemporaryDirectory(prefix: "driver-matrix")
        let mine = folder.url.appendingPathComponent("me")
        let bens = folder.url.appendingPathComponent("ben")

        // When I write twice from my driver
        let first = try courier(
            server, me.account, mine,
            """
            conversations
            expect conversations.count == 1
            open \(room)
            send hello ben
            send are you there
            expect chat.messages[-1].status == "sent"
            expect banner.visible == false
            """)
        #expect(first.status == 0, "\(first.output)\(first.errors)")

        // Then Ben's driver shows both, in order, and answers
        let second = try courier(
            server, ben.account, bens,
            """
            open \(room)
            expect chat.messages[-2].text == "hello ben"
            expect chat.messages[-1].text == "are you there"
            send yes
            """)
        #expect(second.status == 0, "\(second.output)\(second.errors)")

        // And a client nobody here wrote reads the room once each, in the order written
        #expect(try await me.messages(room).map(\.body) == ["hello ben", "are you there", "yes"])

        // And my driver, relaunched on its data directory (its sign-in kept), shows Ben's answer after mine, under the
        // room's name: the first sync since the kept token names the room without its state, which is read whole
        let third = try courier(
            server, me.account, mine,
            """
            open \(room)
            expect chat.title == "me and ben"
            expect chat.messages[-1].text == "yes"
            expect chat.count == 3
            """)
        #expect(third.status == 0, "\(third.output)\(third.errors)")
    }

    @Test func aMessageSentBetweenCommandsPrintsOnceWhenItsEchoMovesIt() async throws {
        // Given my driver on the system clock reading a pipe, as a person's session does: rows print between commands
        let server = try await SynapseServer.shared()
        let (me, _, room) = try await server.conversation()
        let folder = try TemporaryDirectory(prefix: "driver-matrix-echo")
        let courier = try ProductBinary.url("courier", environment: "COURIER_BINARY")
        let session = """
            { echo 'open \(room)'; sleep 1; for n in 1 2 3; do echo "send just once $n"; sleep 2; done; sleep 3; \
              echo 'state'; } | '\(courier.path)' \
              --data-dir '\(folder.url.appendingPathComponent("me").path)' --matrix '\(server.baseURL.absoluteString)' \
              --user '\(me.account.userID)' --password '\(me.account.password)' --clock system
            """

        // When I send three messages and the homeserver's echoes come (each moves its message to where Synapse filed
        // it), while no command runs or during one; the seconds slept are the real homeserver's time to send them
        let run = try await OwnThread {
            Result { try ProductBinary.run(URL(fileURLWithPath: "/bin/sh"), ["-c", session]) }
        }
        .value.get()

        // Then each row printed once as sent: its echo neither made it appear nor changed it
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        for n in 1...3 {
            let rows = run.output.split(separator: "\n").filter { $0.hasSuffix("just once \(n)  [Sent]") }
            #expect(rows.count == 1, "\(run.output)")
        }
        #expect(try await me.messages(room).map(\.body) == ["just once 1", "just once 2", "just once 3"])
    }

    @Test func commandsOfCouriersOwnBackendAreRefusedAndAWrongPasswordIsAClearExit() async throws {
        // Given a user of the homeserver
        let server = try await SynapseServer.shared()
        let (me, _, room) = try await server.conversation()
        let folder = try TemporaryDirectory(prefix: "driver-matrix")

        // When a script asks for what only Courier's own backend has
        let refused = try courier(server, me.account, folder.url.appendingPathComponent("me"), "server \(room)\n")
        #expect(refused.status == 1)
        #expect(refused.output.contains("not available with --matrix"))

        // And when the password is wrong
        let wrong = try ProductBinary.run(
            try ProductBinary.url("courier", environment: "COURIER_BINARY"),
            [
                "--data-dir", folder.url.appendingPathComponent("other").path, "--matrix",
                server.baseURL.absoluteString, "--user", me.account.userID, "--password", "not it", "--script",
                "/dev/null",
            ])
        #expect(wrong.status == 3)
        #expect(wrong.errors.contains("cannot sign in to the homeserver"))
    }
}
