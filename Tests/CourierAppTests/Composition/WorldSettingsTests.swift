import CourierData
import CourierDomain
import CourierFakes
import Foundation
import Testing

@testable import CourierApp

@Suite("WorldSettings.load")
struct WorldSettingsTests {
    private let defaults = WorldSettings.initial(seed: 7, now: Date(timeIntervalSince1970: 1_767_258_000))

    /// Loads `json` from a simulated disk.
    private func load(_ json: String) throws -> (settings: WorldSettings?, problems: [WorldSettingsProblem]) {
        let disk = SimulatedFileSystem()
        try disk.createDirectory("/d")
        let handle = try disk.open("/d/world.json", create: true)
        try disk.write(Data(json.utf8), at: 0, to: handle)
        disk.close(handle)
        return WorldSettings.load(from: "/d/world.json", fileSystem: disk, defaults: defaults)
    }

    @Test("a file the settings wrote reads back whole, with no problem")
    func roundTrip() throws {
        var settings = defaults
        (settings.online, settings.profile, settings.failRate, settings.policy, settings.launches) =
            (false, "3g", 0.25, .automatic, 12)
        settings.demoSeed = UInt64.max
        let disk = SimulatedFileSystem()
        try disk.createDirectory("/d")
        try settings.save(to: "/d/world.json", fileSystem: disk)
        let loaded = WorldSettings.load(from: "/d/world.json", fileSystem: disk, defaults: defaults)
        #expect(loaded.settings == settings)
        #expect(loaded.problems.isEmpty)
    }

    @Test("no file: nil settings and no problem")
    func missing() {
        let loaded = WorldSettings.load(from: "/none/world.json", fileSystem: SimulatedFileSystem(), defaults: defaults)
        #expect(loaded.settings == nil)
        #expect(loaded.problems.isEmpty)
    }

    @Test("each wrong field costs only itself: it is named, and its default is used")
    func wrongFields() throws {
        let json = """
            {"demoSeed": -1, "createdAt": 1767258000000, "clockNow": -5, "online": 3, "profile": "wifi",
             "failRate": 1.5, "signInExpired": true, "policy": "sometimes", "launches": 99999999999999999999}
            """
        let loaded = try load(json)
        let settings = try #require(loaded.settings)
        #expect(
            loaded.problems.map(\.field).sorted()
                == ["clockNow", "demoSeed", "failRate", "launches", "online", "policy"])
        #expect(settings.demoSeed == defaults.demoSeed)
        #expect(settings.signInExpired)
        #expect(settings.failRate == defaults.failRate)
        #expect(settings.policy == defaults.policy)
        #expect(settings.launches == defaults.launches)
    }

    @Test(
        "not JSON, or not an object: defaults and one problem for the whole file", arguments: ["{\"demoSe", "[]", ""])
    func notAnObject(_ text: String) throws {
        let loaded = try load(text)
        #expect(loaded.settings == defaults)
        #expect(loaded.problems.map(\.field) == ["*"])
    }

    @Test("a missing field is named too")
    func missingField() throws {
        let loaded = try load(#"{"demoSeed": 3}"#)
        #expect(loaded.settings?.demoSeed == 3)
        #expect(loaded.problems.count == 8)
        #expect(loaded.problems.allSatisfy { $0.reason.hasPrefix("missing") })
    }
}
