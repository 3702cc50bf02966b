import CourierDomain
import CourierStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// How many times the app has been launched on this directory; varies the seeded random choices (jitter,
    /// failures) between launches. Ids do not depend on it: they come from `client/ids`, which outlives this file.
    public var launches: Int

    /// The settings of a new data directory.
    public static func initial(seed: UInt64, now: Date) -> WorldSettings {
        WorldSettings(
            demoSeed: seed, createdAt: now, clockNow: now, online: true, profile: "wifi", failRate: 0,
            signInExpired: false, policy: .manual, launches: 0)
    }

    /// The largest `world.json` read (64 KiB).
    static let maxFileBytes = 64 << 10
    /// The furthest a launch count goes: it stops there instead of overflowing.
    public static let maxLaunches = 1 << 52
    /// The instants a setting may hold: 1970 to the end of 2199 (a date outside is damage, not a setting).
    static let dateRange: ClosedRange<Double> = 0...7_258_118_400_000

    /// Counts one more launch; saturates at `maxLaunches`.
    public mutating func countLaunch() {
        launches = min(Self.maxLaunches, max(0, launches) + 1)
    }

    /// Reads `path`, field by field: what is missing, of the wrong type or out of range is reported and replaced by
    /// its value in `defaults`; a file that is not JSON at all gives `defaults` and one problem. Never throws and
    /// never traps, whatever the file holds. Nil settings when the file does not exist.
    public static func load(
        from path: String, fileSystem: any FileSystem, defaults: WorldSettings
    ) -> (settings: WorldSettings?, problems: [WorldSettingsProblem]) {
        guard fileSystem.exists(path) else { return (nil, []) }
        let data: Data
        do {
            let handle = try fileSystem.open(path, create: false)
            defer { fileSystem.close(handle) }
            // The settings take a few hundred bytes: a huge file is damage, and is not read into memory.
            let size = try fileSystem.size(of: handle)
            guard size <= maxFileBytes else {
                let reason = "is \(size) bytes, more than settings can be (\(maxFileBytes)); defaults used"
                return (defaults, [WorldSettingsProblem(field: "*", reason: reason)])
            }
            data = try fileSystem.readAll(handle)
        } catch {
            return (defaults, [WorldSettingsProblem(field: "*", reason: "cannot be read (\(error)); defaults used")])
        }
        let fields: WorldSettingsFields
        do {
            fields = try JSONDecoder().decode(WorldSettingsFields.self, from: data)
        } catch {
            let reason = "is not a JSON object (\(data.count) bytes); defaults used for every field"
            return (defaults, [WorldSettingsProblem(field: "*", reason: reason)])
        }
        return fields.validated(defaults: defaults)
    }

    /// Writes the settings to `path` through a synced temporary file and a rename; `syncDirectory` makes the
    /// rename itself durable (needed when the file is new).
    public func save(to path: String, fileSystem: any FileSystem, syncDirectory: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw StoreError.io("cannot encode settings: \(error)") }
        try fileSystem.replaceFile(at: path, with: data, syncDirectory: syncDirectory)
    }
}
