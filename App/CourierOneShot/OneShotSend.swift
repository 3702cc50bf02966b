import CourierDemoWorld
import CourierDomain
import CourierStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `courier [--data-dir DIR] [--user ID] send ID TEXT…`: what an app extension does — open the data directory beside
/// whatever runs on it, compose one message durably into the shared outbox, print its id and leave
/// (docs/driver.md, "Invocation").
///
/// Who sends it depends on the outbox's lease (`OutboxLease`, docs/design.md §2.8), which a driver holds while it is
/// in the foreground:
/// - held: the one-shot appends beside the holder and leaves sending to it; the holder takes the message in and
///   sends it by its policy.
/// - free, against a real server (`--server`) — no driver runs, or it is in the background: nobody will send soon,
///   so the one-shot takes the lease for its short life, as a notification's reply does while its app is not in
///   front. It composes, makes one attempt to send its own message and lets the lease go. A message that did not go
///   stays in the outbox for the app, as do the sends a dead holder cut off (the app sends them again when it takes
///   the lease).
/// - free, on the in-process world: that world's backend belongs to the driver, so the message waits for it.
///
/// It links CourierStore and nothing of CourierData: the backend a send with `--server` goes to comes from
/// `makeSender`, which the full driver gives (`DriverMain`); the `courier` command runs a one-shot send without
/// `--server` itself, on Foundation's essentials alone (issue 33).
public enum OneShotSend {
    /// Makes the repository a send with `--server` goes to: the server's URL, the directory's owner, the data
    /// directory (whose token store it signs in with) and the file system the send opens its files through.
    public typealias MakeSender =
        @MainActor (_ server: URL, _ user: UserID, _ directory: URL, _ fileSystem: any FileSystem) ->
        any MessageRepository

    /// Whether `options`, which hold a one-shot send, need nothing of the driver: no `--help`, `--fresh` or
    /// `--script` (the driver answers those) and no `--server` (its send needs an HTTP client).
    public static func runsWithoutDriver(_ options: DriverOptions) -> Bool {
        options.oneShot != nil && !options.help && !options.fresh && options.scriptPath == nil && options.server == nil
            && options.matrix == nil
    }

    /// Composes `text` into `conversation` in the data directory of `options`; returns the exit status. Everything
    /// it opens goes through `fileSystem`: the owner's mark, the settings, the id space, the outbox log and its lock
    /// (and the token store for a send with `--server`) — no cache, list or sync state (issue 33). Without
    /// `makeSender`, a send with `--server` only composes, as when another process holds the lease.
    @MainActor
    public static func run(
        _ send: DriverOptions.OneShot, options: DriverOptions, write: (String) -> Void, warn: (String) -> Void,
        fileSystem: any FileSystem = PosixFileSystem(), makeSender: MakeSender? = nil
    ) async -> Int32 {
        let directory = options.dataDirectory
        guard DataDirectory.kind(of: directory, fileSystem: fileSystem) == .courier,
            fileSystem.exists(directory.appendingPathComponent("client").path)
        else {
            warn("cannot open the data directory \(directory.path): it is not a Courier data directory in use")
            return DriverExitStatus.dataDirectoryUnavailable.rawValue
        }
        do {
            let user = try owner(of: directory, requested: options.user.map { UserID($0) }, fileSystem: fileSystem)
            let settings =
                WorldSettings.load(
                    from: directory.appendingPathComponent("world.json").path, fileSystem: fileSystem,
                    defaults: .initial(seed: options.seed, now: ManualClock().now)
                ).settings ?? .initial(seed: options.seed, now: ManualClock().now)
            let conversation = ConversationID(send.conversation)
            if options.server == nil, !knows(conversation, for: user) {
                warn("error: no conversation \(send.conversation)")
                return DriverExitStatus.commandFailed.rawValue
            }
            let clock: any Clock =
                (options.clock ?? (options.server == nil ? .virtual : .system)) == .virtual
                ? ManualClock(start: settings.clockNow) : SystemClock()
            let ids = try DurableIDSpace(path: WorldFiles.idSpacePath(in: directory), fileSystem: fileSystem)
            // The lease is only worth taking when this process can send: against a real server.
            let client = directory.appendingPathComponent("client")
            let free = OutboxLease(path: client.appendingPathComponent("outbox.lease").path, fileSystem: fileSystem)
            let lease = options.server != nil && makeSender != nil && (try? free.tryTake()) == true ? free : nil
            defer { lease?.release() }
            let store = try FileOutboxStore(directory: client, fileSystem: fileSystem, access: .guest)
            defer { store.close() }
            let connectivity = ManualConnectivity(online: false)
            let repository: any MessageRepository =
                if let server = options.server, let makeSender, lease != nil {
                    makeSender(server, user, directory, fileSystem)
                } else {
                    NoBackend()
                }
            let outbox = DurableOutbox(
                store: store, repository: repository, connectivity: connectivity, clock: clock, ids: ids.generator,
                currentUser: user)
            defer { outbox.stop() }
            let message: Message
            do {
                message = try outbox.compose(text: send.text, in: conversation)
            } catch let error as InputError {
                warn("error: \(error)")
                return DriverExitStatus.commandFailed.rawValue
            }
            // Durable now: the id is the acknowledgement, whatever happens next.
            write(message.id.rawValue)
            if lease != nil {
                // One attempt, as a tap on Send Now makes.
                connectivity.set(online: true)
                do { try await outbox.send(message.id) } catch {
                    warn("kept in the outbox for the app: \(error)")
                }
            }
            return DriverExitStatus.success.rawValue
        } catch {
            warn("cannot open the data directory \(directory.path): \(error)")
            return DriverExitStatus.dataDirectoryUnavailable.rawValue
        }
    }

    /// The directory's owner; `requested` must be it. A directory nobody signed in to yet is refused: a one-shot
    /// send claims nothing.
    private static func owner(of directory: URL, requested: UserID?, fileSystem: any FileSystem) throws -> UserID {
        let client = directory.appendingPathComponent("client")
        guard let owner = try ClientDirectory.owner(of: client, fileSystem: fileSystem) else {
            throw StoreError.io("\(client.path) has no owner yet: start the driver on it once first")
        }
        if let requested, requested != owner { throw StoreError.ownedByAnotherUser(owner: owner, requested: requested) }
        return owner
    }

    /// Whether the demo world has `conversation` with `user` in it (the backend's journal belongs to the running
    /// driver; its conversations all come from the demo data, whose participants the id alone decides — so the
    /// send never makes the demo world's messages to look one up).
    private static func knows(_ conversation: ConversationID, for user: UserID) -> Bool {
        DemoRoster.participants(of: conversation)?.contains(user) ?? false
    }
}

/// The repository of a process that never sends: the outbox it composes into is offline.
private struct NoBackend: MessageRepository {
    func send(_ message: Message) async throws(DeliveryError) -> Message { throw DeliveryError.offline }

    func messages(
        in conversation: ConversationID, before cursor: MessageCursor?, limit: Int
    ) async throws(DeliveryError) -> MessagePage {
        throw DeliveryError.offline
    }
}
