import CourierData
import CourierDomain
import Foundation

/// Which clock the driver runs on.
public enum ClockMode: String, Sendable {
    /// Time moves only through `advance` and simulated latency, backoff and timeouts: scripts replay exactly.
    case virtual
    /// Real time.
    case system
}

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

    /// What `world.json` holds, once written by this process.
    private var saved: WorldSettings?
    private let lock: DataDirectoryLock
    private let journal: RecordLogBackendJournal
    private let logger: Logger

    /// Opens (creating and seeding on first use) the world in `directory`. Throws `StoreError.locked` when another
    /// process holds the directory. `fresh` wipes the directory first (on the real disk).
    public init(
        directory: URL, clockMode: ClockMode, seed: UInt64, fresh: Bool, fileSystem: any FileSystem = PosixFileSystem(),
        clock injected: ManualClock? = nil, logger: Logger = .silent
    ) throws {
        if fresh, FileManager.default.fileExists(atPath: directory.path) {
            let probe = try DataDirectoryLock.acquire(directory: directory, fileSystem: fileSystem)
            probe.release()
            try Self.wipe(directory)
        }
        lock = try DataDirectoryLock.acquire(directory: directory, fileSystem: fileSystem)
        try fileSystem.createDirectory(directory.appendingPathComponent("server").path)
        try fileSystem.createDirectory(directory.appendingPathComponent("client").path)
        self.directory = directory
        self.fileSystem = fileSystem
        self.seed = seed
        self.logger = logger
        let settingsPath = directory.appendingPathComponent("world.json").path
        let epoch = clockMode == .virtual ? ManualClock().now : Date()
        var settings = try WorldSettings.load(from: settingsPath, fileSystem: fileSystem)
            ?? .initial(seed: seed, now: epoch)
        settings.launches += 1
        self.settings = settings
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
        journal = try RecordLogBackendJournal(
            path: directory.appendingPathComponent("server/backend.log").path, fileSystem: fileSystem, logger: logger)
        backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: settings.demoSeed, now: settings.createdAt), journal: journal)
        backend.isSignInExpired = settings.signInExpired
        network = NetworkConditioner(
            backend: backend, clock: clock, random: random,
            profile: NetworkProfile(rawValue: settings.profile) ?? .wifi,
            failRate: settings.failRate, isOnline: settings.online)
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

    /// Writes `world.json`. A replacing rename is not followed by a directory sync: a crash leaves the previous or
    /// the new file, both whole. Only the file's first write in a process and a new launch count (which seeds ids)
    /// are synced into the directory.
    private func write() throws {
        try settings.save(
            to: directory.appendingPathComponent("world.json").path, fileSystem: fileSystem,
            syncDirectory: saved == nil || saved?.launches != settings.launches)
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

    private static func wipe(_ directory: URL) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: directory.path) {
            try manager.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
