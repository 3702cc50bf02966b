import CourierApp
import Foundation
import Testing

/// `MemoryMap` reads what a process holds resident from `smaps` text, and names what one holds above another.
@Suite struct MemoryMapTests {
    private static let driver = """
        55d0c0000000-55d0c0100000 r-xp 00000000 08:01 123 /work/.build/release/courier-driver-tool
        Size:               1024 kB
        Rss:                 600 kB
        Pss:                 600 kB
        7f00000000-7f00100000 r--p 00000000 08:01 456 /opt/swift/usr/lib/swift/linux/libFoundation.so
        Rss:                4000 kB
        7f00100000-7f00200000 r-xp 00100000 08:01 456 /opt/swift/usr/lib/swift/linux/libFoundation.so
        Rss:                 240 kB
        7f00200000-7f00300000 rw-p 00000000 00:00 0
        Rss:                2000 kB
        7f00300000-7f00400000 rw-p 00000000 00:00 0 [heap]
        Rss:                 800 kB
        VmFlags: rd wr mr mw me ac sd
        7f00400000-7f00500000 r--p 00000000 08:01 789 /usr/lib/x86_64-linux-gnu/libcrypto.so.3
        Rss:                1456 kB

        """

    private static let hello = """
        7f00000000-7f00100000 r--p 00000000 08:01 456 /opt/swift/usr/lib/swift/linux/libFoundation.so
        Rss:                3600 kB
        7f00200000-7f00300000 rw-p 00000000 00:00 0
        Rss:                2500 kB
        7f00300000-7f00400000 rw-p 00000000 00:00 0 [heap]
        Rss:                 100 kB

        """

    @Test("resident bytes add up by the file's name, the heap and anonymous memory; other fields are skipped")
    func readsByMapping() {
        let map = MemoryMap(smaps: Self.driver)
        #expect(map.resident["libFoundation.so"] == 4_240 * 1_024)
        #expect(map.resident["courier-driver-tool"] == 600 * 1_024)
        #expect(map.resident["anonymous"] == 2_000 * 1_024)
        #expect(map.resident["[heap]"] == 800 * 1_024)
        #expect(map.total == (600 + 4_240 + 2_000 + 800 + 1_456) * 1_024)
    }

    @Test("what holds more than the floor's, largest first; what holds less is left out")
    func namesWhatIsAbove() {
        let above = MemoryMap(smaps: Self.driver).above(MemoryMap(smaps: Self.hello))
        #expect(above.map(\.name) == ["libcrypto.so.3", "[heap]", "libFoundation.so", "courier-driver-tool"])
        #expect(above.map(\.bytes) == [1_456, 700, 640, 600].map { $0 * 1_024 })
    }

    @Test("text that is not smaps reads as nothing, without a crash")
    func readsGarbageAsNothing() {
        #expect(MemoryMap(smaps: "").total == 0)
        #expect(MemoryMap(smaps: "Rss: lots\n-- nonsense\n\u{0}\u{FFFD}\nRss: 12 kB").resident == ["anonymous": 12_288])
    }
}

/// The driver's own map, written at exit when asked, is the whole of it: a `/proc` file read once gives a page.
@Suite struct MemoryMapOwnTests {
    @Test("this process's map, written to the file the variable names, holds every mapping, not its first page")
    func writesItsWholeMap() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        MemoryMap.writeOwn(environment: [MemoryMap.environmentKey: file.path])
        let map = MemoryMap(smaps: try String(contentsOf: file, encoding: .utf8))
        #expect(map.resident.keys.contains("libswiftCore.so"))
        #expect(map.resident.keys.contains("[heap]"))
        #expect(map.total > 10 * 1_024 * 1_024)
    }

}
