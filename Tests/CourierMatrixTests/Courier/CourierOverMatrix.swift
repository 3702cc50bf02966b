import CourierData
import CourierDomain
import CourierMatrix
import CourierTestSupport
import Foundation

/// Courier as an app composes it, over a real homeserver: a `CourierClient` in a temporary directory whose backend
/// is a `MatrixClient` signed in as `account`, on the system clock (a real server answers in real time), with a
/// device path the test switches. Closed when the test ends.
@MainActor
final class CourierOverMatrix {
    /// The client's folder.
    let directory: TemporaryDirectory
    /// The device's path: the test takes it offline and back.
    let connectivity = ManualConnectivity(online: true)
    /// The adapter.
    let matrix: MatrixClient
    /// The data side an app builds its screens on.
    let client: CourierClient
    /// The signed-in user's full id.
    let user: UserID

    /// Signs in as `account` on `server` (a new device unless `tokens` keeps one) and opens a client over it.
    init(
        _ server: SynapseServer, as account: MatrixAccount, policy: SendPolicy = .automatic,
        sync: SyncSettings = SyncSettings(liveWait: .seconds(5)), directory: TemporaryDirectory? = nil
    ) async throws {
        let directory = try directory ?? TemporaryDirectory(prefix: "courier-matrix")
        self.directory = directory
        let tokens = FileTokenStore(path: directory.url.appendingPathComponent("matrix-token").path)
        matrix = MatrixClient(
            homeserver: MatrixHomeserver(baseURL: server.baseURL), login: account.userID, password: account.password,
            tokens: tokens, timeout: .seconds(20))  // generous: every suite may share two cores with Synapse
        user = try await matrix.signedIn().user
        let matrix = matrix
        client = try CourierClient(
            directory: directory.url.appendingPathComponent("client"), currentUser: user, messages: matrix,
            conversations: matrix, users: matrix, connectivity: connectivity, clock: SystemClock(), ids: .random,
            policy: policy,
            writeExecutors: [
                CourierClient.hideConversationKind: { write in
                    try await matrix.hideConversation(ConversationID(try write.decodePayload(String.self)))
                }
            ], feed: matrix, syncSettings: sync)
        TemporaryDirectory.closeWhenTestEnds { [client] in await MainActor.run { client.close() } }
    }

    /// What the device holds of `room`, in the order it shows it.
    func shown(_ room: String) -> [Message] { client.messageCache.messages(in: ConversationID(room)) }

    /// Waits on the wall clock, 20 ms at a time, until `condition` holds (true) or `attempts` looks failed (false):
    /// a real homeserver takes real time to answer. Looks are counted, not time.
    func wait(until condition: () -> Bool, attempts: Int = 1_500) async -> Bool {
        for _ in 0..<attempts {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
