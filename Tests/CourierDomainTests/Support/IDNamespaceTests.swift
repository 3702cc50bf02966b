import CourierDomain
import Foundation
import Testing

@Suite("IDNamespace")
struct IDNamespaceTests {
    @Test("one namespace gives a distinct UUID-shaped version-4 id for every counter, with distinct short prefixes")
    func distinctIDsPerCounter() {
        // Given a namespace
        let namespace = IDNamespace.seeded(1)
        // When it makes ids for counters 0..<5000 and for values at the far end of the counter's range
        let counters = Array(0..<UInt64(5_000)) + [UInt64.max, UInt64.max - 1, 1 << 63]
        let ids = counters.map(namespace.id(at:))
        // Then they are all different, parse as UUIDs with version 4 and the RFC 4122 variant
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { UUID(uuidString: $0.rawValue) != nil })
        #expect(ids.allSatisfy { Array($0.rawValue)[14] == "4" && "89ab".contains(Array($0.rawValue)[19]) })
        // And consecutive ids differ in their first characters (listings show a short prefix)
        #expect(Set(ids.prefix(100).map { $0.rawValue.prefix(6) }).count == 100)
    }

    @Test("a seed gives the same namespace every time; other seeds and the system source give other ids")
    func seededAndRandomNamespaces() {
        #expect(IDNamespace.seeded(7) == IDNamespace.seeded(7))
        let seven = (0..<100).map { IDNamespace.seeded(7).id(at: $0) }
        let eight = (0..<100).map { IDNamespace.seeded(8).id(at: $0) }
        let random = (0..<100).map { IDNamespace.random().id(at: $0) }
        #expect(Set(seven).isDisjoint(with: eight))
        #expect(Set(seven).isDisjoint(with: random))
        #expect(IDNamespace.random() != IDNamespace.random())
    }
}
