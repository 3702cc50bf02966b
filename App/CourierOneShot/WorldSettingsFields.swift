import CourierDemoWorld
import CourierDomain
import CourierStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `world.json` as it was found: every field decoded on its own, so one bad field costs only itself.
struct WorldSettingsFields: Decodable {
    private enum Key: String, CodingKey, CaseIterable {
        case demoSeed, createdAt, clockNow, online, profile, failRate, signInExpired, policy, launches
    }

    private var values: [Key: Any] = [:]
    private var problems: [WorldSettingsProblem] = []

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in Key.allCases {
            guard container.contains(key) else {
                problems.append(WorldSettingsProblem(field: key.rawValue, reason: "missing; default used"))
                continue
            }
            do {
                switch key {
                case .demoSeed: values[key] = try container.decode(UInt64.self, forKey: key)
                case .createdAt, .clockNow, .failRate: values[key] = try container.decode(Double.self, forKey: key)
                case .online, .signInExpired: values[key] = try container.decode(Bool.self, forKey: key)
                case .profile, .policy: values[key] = try container.decode(String.self, forKey: key)
                case .launches: values[key] = try container.decode(Int.self, forKey: key)
                }
            } catch {
                problems.append(WorldSettingsProblem(field: key.rawValue, reason: "unreadable value; default used"))
            }
        }
    }

    /// The settings, each field checked against its range; `defaults` fills what could not be used.
    func validated(defaults: WorldSettings) -> (settings: WorldSettings, problems: [WorldSettingsProblem]) {
        var settings = defaults
        var problems = self.problems
        func reject(_ key: Key, _ value: Any, _ range: String) {
            problems.append(WorldSettingsProblem(field: key.rawValue, reason: "\(value) is not \(range); default used"))
        }
        if let seed = values[.demoSeed] as? UInt64 { settings.demoSeed = seed }
        for key in [Key.createdAt, .clockNow] {
            guard let milliseconds = values[key] as? Double else { continue }
            guard milliseconds.isFinite, WorldSettings.dateRange.contains(milliseconds) else {
                reject(key, milliseconds, "a time between 1970 and 2199")
                continue
            }
            let date = Date(timeIntervalSince1970: milliseconds / 1_000)
            if key == .createdAt { settings.createdAt = date } else { settings.clockNow = date }
        }
        if let online = values[.online] as? Bool { settings.online = online }
        if let signInExpired = values[.signInExpired] as? Bool { settings.signInExpired = signInExpired }
        if let profile = values[.profile] as? String {
            if NetworkProfile(rawValue: profile) != nil {
                settings.profile = profile
            } else {
                reject(.profile, profile, "a network profile (wifi, 3g, flaky)")
            }
        }
        if let policy = values[.policy] as? String {
            if let known = SendPolicy(rawValue: policy) {
                settings.policy = known
            } else {
                reject(.policy, policy, "a send policy (manual, automatic)")
            }
        }
        if let rate = values[.failRate] as? Double {
            if rate.isFinite, (0...1).contains(rate) {
                settings.failRate = rate
            } else {
                reject(.failRate, rate, "a fraction from 0 to 1")
            }
        }
        if let launches = values[.launches] as? Int {
            if (0...WorldSettings.maxLaunches).contains(launches) {
                settings.launches = launches
            } else {
                reject(.launches, launches, "a count from 0 to \(WorldSettings.maxLaunches)")
            }
        }
        return (settings, problems)
    }
}
