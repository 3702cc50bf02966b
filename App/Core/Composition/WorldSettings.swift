import CourierData
import CourierDomain
import Foundation

/// What the driver keeps about its simulated world between runs, in `world.json` in the data directory: the
/// demo data's seed and epoch, the virtual clock's position, the network's state and the user's settings.
public struct WorldSettings: Codable, Equatable, Sendable {
    /// Seed the demo data was generated from (fixed when the directory is created).
    public var demoSeed: UInt64
    /// The instant the demo data was generated at.
    public var createdAt: Date
    /// Where the virtual clock stood when the last command finished.
    public var clockNow: Date
    /// Connectivity.
    public var online: Bool
    /// Network profile name (`wifi`, `3g`, `flaky`).
    public var profile: String
    /// Extra fraction of failing requests.
    public var failRate: Double
    /// Whether the backend answers "unauthorized".
    public var signInExpired: Bool
    /// The send policy for queued messages.
    public var policy: SendPolicy
    /// How many times the app has been launched on this directory; keeps seeded ids fresh across launches.
    public var launches: Int

    /// The settings of a new data directory.
    public static func initial(seed: UInt64, now: Date) -> WorldSettings {
        WorldSettings(
            demoSeed: seed, createdAt: now, clockNow: now, online: true, profile: "wifi", failRate: 0,
            signInExpired: false, policy: .manual, launches: 0)
    }

    /// Reads `path`; nil when the file does not exist. A damaged file is an error.
    public static func load(from path: String, fileSystem: any FileSystem) throws -> WorldSettings? {
        guard fileSystem.exists(path) else { return nil }
        let handle = try fileSystem.open(path, create: false)
        defer { fileSystem.close(handle) }
        let data = try fileSystem.readAll(handle)
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .millisecondsSince1970
            return try decoder.decode(WorldSettings.self, from: data)
        } catch {
            throw StoreError.incompatible("\(path) cannot be read: \(error)")
        }
    }

    /// Writes the settings to `path` through a synced temporary file and a rename; `syncDirectory` makes the
    /// rename itself durable (needed when the file is new).
    public func save(to path: String, fileSystem: any FileSystem, syncDirectory: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw StoreError.io("cannot encode settings: \(error)") }
        let temporary = path + ".tmp"
        let handle = try fileSystem.open(temporary, create: true)
        do {
            try fileSystem.truncate(handle, to: 0)
            try fileSystem.write(data, at: 0, to: handle)
            try fileSystem.sync(handle)
        } catch {
            fileSystem.close(handle)
            throw error
        }
        fileSystem.close(handle)
        try fileSystem.rename(temporary, to: path)
        if syncDirectory { try fileSystem.syncDirectory((path as NSString).deletingLastPathComponent) }
    }
}
