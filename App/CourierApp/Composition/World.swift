import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import Foundation

/// The simulated world around the app: the data directory (locked), the clock, the seeded randomness, the
/// backend and the network in front of it. It outlives app restarts; the app is rebuilt on top of it.
@MainActor
public final class World {
    /// The data directory.
    public let directory: URL
    /// The clock everything sleeps on.
    public let clock: any Clock
    /// The same clock when it is virtual.
    public let manualClock: ManualClock?
    /// Every random choice of the run.
    public let random: LockedRandom
    /// The reachability probe's jitter (a generator of its own: probing shifts no other draw).
    public let probeRandom: LockedRandom
    /// The run's seed.
    public let seed: UInt64
    /// The simulated server.
    public let backend: InMemoryChatBackend
    /// The network between the app and the server; also the app's connectivity.
    public let network: NetworkConditioner
    /// Persisted settings; `save()` writes them.
    public var settings: WorldSettings
    /// The file system every store writes through (a simulated disk in simulations).
    public let fileSystem: any FileSystem
    /// The user signed in on this directory: its owner (`DataDirectoryOwner`).
    public let user: UserID

    /// What opening the data directory's files had to skip, cut or replace since this world was opened, in order.
    public private(set) var recovered: [RecoveredDamage] = []

    /// What `world.json` holds, once written by this process.
    private var saved: WorldSettings?
    private let lock: DataDirectoryLock
    private let journal: RecordLogBackendJournal
    private let logger: Logger

    /// Opens (creating and seeding on first use) the world in `directory`. Throws `StoreError.locked` when another
    /// process holds the directory. `fresh` wipes the directory first (on the real disk) — only one that is missing,
    /// empty or Courier's (`DataDirectory`); any other throws `DataDirectoryError.notCourier` with nothing touched.
    /// A damaged `world.json` never stops it: what could not be used is replaced by defaults and listed in
    /// `recovered`. With `server`, requests go over HTTP to that `courier-server` instead of to the
    /// in-process backend. `user` signs in as that user; the directory belongs to whoever signed in first
    /// (`DataDirectoryOwner`), and another user is refused.
    public init(
        directory: URL, clockMode: ClockMode, seed: UInt64, fresh: Bool, fileSystem: any FileSystem = PosixFileSystem(),
        clock injected: ManualClock? = nil, logger: Logger = .silent, server: URL? = nil, user requested: UserID? = nil,
        matrix: MatrixConnection? = nil, remotes: (any RemoteBackends)? = nil
    ) throws {
        if server != nil, remotes == nil { throw NoRemoteBackends(option: "--server") }
        if matrix != nil, remotes == nil { throw NoRemoteBackends(option: "--matrix") }
        let found =
            fresh
            ? try DataDirectory.checkWipeable(directory) : DataDirectory.kind(of: directory, fileSystem: fileSystem)
        lock = try DataDirectoryLock.acquire(directory: directory, fileSystem: fileSystem)
        if fresh { try DataDirectory.wipe(directory, kind: found) }
        try DataDirectory.mark(directory, kindBeforeOpening: found, fileSystem: fileSystem)
        let clientPath = directory.appendingPathComponent("client").path
        let serverPath = directory.appendingPathComponent("server").path
        // Nothing older than a new directory can hold its ids, so only there may a replayed run derive its id
        // namespace from the seed; anywhere else a missing namespace comes from the system's random source. A
        // remote server outlives the directory and may hold ids from an earlier one: then the namespace is random.
        let isNew = !fileSystem.exists(clientPath) && !fileSystem.exists(serverPath)
        try fileSystem.createDirectory(serverPath)
        try fileSystem.createDirectory(clientPath)
        if isNew { try fileSystem.syncDirectory(directory.path) }
        user = try DataDirectoryOwner.claim(
            directory, requested: requested, fallback: AppContainer.demoUser, fileSystem: fileSystem)
        try DurableIDSpace.create(
            path: WorldFiles.idSpacePath(in: directory), fileSystem: fileSystem,
            namespace: isNew && clockMode == .virtual && server == nil && matrix == nil ? .seeded(seed) : .random())
        self.directory = directory
        self.fileSystem = fileSystem
        self.seed = seed
        self.logger = logger
        let settingsPath = directory.appendingPathComponent("world.json").path
        let epoch = clockMode == .virtual ? ManualClock().now : Date()
        let defaults = WorldSettings.initial(seed: seed, now: epoch)
        let loaded = WorldSettings.load(from: settingsPath, fileSystem: fileSystem, defaults: defaults)
        var settings = loaded.settings ?? defaults
        settings.countLaunch()
        self.settings = settings
        for problem in loaded.problems {
            logger.log(.warning, "\(settingsPath): \(problem)")
            recovered.append(RecoveredDamage(file: "world.json", problem: problem))
        }
        switch clockMode {
        case .virtual:
            let manual = injected ?? ManualClock(start: settings.clockNow)
            manualClock = manual
            clock = manual
        case .system:
            manualClock = nil
            clock = SystemClock()
        }
        random = LockedRandom(seed: seed &+ UInt64(settings.launches) &* 0x9E37_79B9)
        probeRandom = LockedRandom(seed: (seed &+ UInt64(settings.launches)) ^ 0x9B0B_E5_9B0B_E5)
        journal = try RecordLogBackendJournal(
            path: directory.appendingPathComponent("server/backend.log").path, fileSystem: fileSystem, logger: logger)
        backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: settings.demoSeed, now: settings.createdAt), journal: journal)
        backend.isSignInExpired = settings.signInExpired
        network = NetworkConditioner(
            backend: backend, clock: clock, random: random,
            profile: NetworkProfile(rawValue: settings.profile) ?? .wifi,
            failRate: settings.failRate, isOnline: settings.online,
            feedRandom: LockedRandom(seed: (seed &+ UInt64(settings.launches)) ^ 0xFEED_FEED_FEED_FEED),
            receiptRandom: LockedRandom(seed: (seed &+ UInt64(settings.launches)) ^ 0x4EC_4EC_4EC_4EC))
        noteRecovery(of: "server/backend.log", journal.report)
        network.user = user
        let tokens = FileTokenStore(path: WorldFiles.tokenPath(in: directory), fileSystem: fileSystem)
        if let server, let remotes {
            network.remote = remotes.server(
                baseURL: server, user: user, password: WorldFiles.demoPassword, tokens: tokens, logger: logger)
        }
        if let matrix, let remotes {
            // The homeserver's sign-in, made before the directory was opened, is kept in it from now on (`0600`).
            let kept = FileTokenStore(path: WorldFiles.matrixTokenPath(in: directory), fileSystem: fileSystem)
            if (try? kept.load()) != matrix.signIn { try kept.save(matrix.signIn) }
            network.remote = remotes.matrix(
                homeserver: matrix.homeserver, login: matrix.signIn.user.rawValue, password: matrix.password,
                tokens: kept, clock: clock, logger: logger)
        }
        network.holdsRemotePolls = clockMode == .system
        try save()
    }

    /// Writes the settings, with the clock's and the network's current state, when they differ from what is on
    /// disk (a command that changed nothing writes nothing). Real time moves on every command, so under the system
    /// clock its reading is written only with another change and at `close()`.
    public func save() throws {
        if manualClock != nil { settings.clockNow = clock.now }
        settings.online = network.isOnline
        settings.profile = network.profile.rawValue
        settings.failRate = network.failRate
        settings.signInExpired = backend.isSignInExpired
        guard settings != saved else { return }
        if manualClock == nil { settings.clockNow = clock.now }
        try write()
    }

    /// Records what opening `file` (relative to the directory) repaired, when it repaired anything. The same damage
    /// found again by a reopen (a damaged record stays in its file) is recorded once.
    public func noteRecovery(of file: String, _ report: RecoveryReport) {
        let damage = RecoveredDamage(file: file, report: report)
        if !report.isClean, !recovered.contains(damage) { recovered.append(damage) }
    }

    /// Writes `world.json`. A replacing rename is not followed by a directory sync: a crash leaves the previous or
    /// the new file, both whole. Only the file's first write in a process is synced into the directory.
    private func write() throws {
        try settings.save(
            to: directory.appendingPathComponent("world.json").path, fileSystem: fileSystem,
            syncDirectory: saved == nil)
        saved = settings
    }

    /// Releases the data directory (writing the system clock's last reading).
    public func close() {
        if manualClock == nil, saved != nil {
            settings.clockNow = clock.now
            try? write()
        }
        journal.close()
        lock.release()
    }
}

/// A Matrix homeserver the world's network carries requests to (`--matrix`): where it is, the sign-in made there,
/// and the password that renews it.
public struct MatrixConnection: Sendable {
    /// The homeserver's base URL.
    public var homeserver: URL
    /// The sign-in: its user is the data directory's owner.
    public var signIn: SignInToken
    /// The password, for renewing the sign-in.
    public var password: String?

    /// A connection to `homeserver` signed in as `signIn`.
    public init(homeserver: URL, signIn: SignInToken, password: String?) {
        self.homeserver = homeserver
        self.signIn = signIn
        self.password = password
    }
}
