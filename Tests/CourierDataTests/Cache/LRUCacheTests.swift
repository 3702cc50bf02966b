import Testing

@testable import CourierData
@testable import CourierStore

@Suite struct LRUCacheTests {
    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() {
        // Given a cache of three, with "a" read after "b" and "c" were set
        var cache = LRUCache<String, Int>(capacity: 3)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        cache.set(3, for: "c")
        _ = cache.value(for: "a")

        // When a fourth entry is set, and "c" is removed, and two more are set
        let first = cache.set(4, for: "d")
        cache.removeValue(for: "c")
        let second = cache.set(5, for: "e")
        let third = cache.set(6, for: "f")

        // Then "b", then "a" went, in order of use; freed slots were reused
        #expect(first.map(\.key) == ["b"])
        #expect(second.isEmpty)
        #expect(third.map(\.key) == ["a"])
        #expect(cache.keysLeastRecentFirst == ["d", "e", "f"])
        #expect(cache.peek("d") == 4)
        #expect(cache.count == 3)
    }
}
