import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier [--data-dir DIR] [--user ID] send ID TEXT…`: what an app extension does — open the data directory beside
/// whatever runs on it, compose one message durably into the shared outbox, print its id and leave
/// (docs/driver.md, "Invocation"). It takes no directory lock and does no background work: the directory's owner (a
/// running driver, or the next one to start) picks the message up and sends it by its policy.
enum OneShotSend {
    /// Composes `text` into `conversation` in the data directory of `options`; returns the exit status.
    @MainActor
    static func run(
        _ send: DriverOptions.OneShot, options: DriverOptions, write: (String) -> Void, warn: (String) -> Void
    ) -> Int32 {
        let directory = options.dataDirectory
        let fileSystem = PosixFileSystem()
        guard DataDirectory.kind(of: directory, fileSystem: fileSystem) == .courier,
            fileSystem.exists(directory.appendingPathComponent("client").path)
        else {
            warn("cannot open the data directory \(directory.path): it is not a Courier data directory in use")
            return Driver.ExitStatus.dataDirectoryUnavailable.rawValue
        }
        do {
            let user = try owner(of: directory, requested: options.user.map { UserID($0) }, fileSystem: fileSystem)
            let settings = WorldSettings.load(
                from: directory.appendingPathComponent("world.json").path, fileSystem: fileSystem,
                defaults: .initial(seed: options.seed, now: ManualClock().now)
            ).settings ?? .initial(seed: options.seed, now: ManualClock().now)
            let conversation = ConversationID(send.conversation)
            if options.server == nil, !knows(conversation, for: user, settings: settings) {
                warn("error: no conversation \(send.conversation)")
                return Driver.ExitStatus.commandFailed.rawValue
            }
            let clock: any Clock =
                (options.clock ?? (options.server == nil ? .virtual : .system)) == .virtual
                ? ManualClock(start: settings.clockNow) : SystemClock()
            let ids = try DurableIDSpace(path: World.idSpacePath(in: directory), fileSystem: fileSystem)
            let store = try FileOutboxStore(
                directory: directory.appendingPathComponent("client"), fileSystem: fileSystem, access: .guest)
            defer { store.close() }
            let outbox = DurableOutbox(
                store: store, repository: NoBackend(), connectivity: ManualConnectivity(online: false), clock: clock,
                ids: ids.generator, currentUser: user)
            defer { outbox.stop() }
            do {
                let message = try outbox.compose(text: send.text, in: conversation)
                write(message.id.rawValue)
                return Driver.ExitStatus.success.rawValue
            } catch let error as InputError {
                warn("error: \(error)")
                return Driver.ExitStatus.commandFailed.rawValue
            }
        } catch {
            warn("cannot open the data directory \(directory.path): \(error)")
            return Driver.ExitStatus.dataDirectoryUnavailable.rawValue
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

    /// Whether the demo world of `settings` has `conversation` with `user` in it (the backend's journal belongs to
    /// the running driver; its conversations all come from the demo data).
    private static func knows(_ conversation: ConversationID, for user: UserID, settings: WorldSettings) -> Bool {
        DemoData.make(seed: settings.demoSeed, now: settings.createdAt).conversations.contains {
            $0.id == conversation && $0.participantIDs.contains(user)
        }
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
