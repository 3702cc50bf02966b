import CourierDomain
import Foundation
import Testing

@Suite struct IDGeneratorTests {
    @Test func aSeedReplaysTheSameUUIDs() {
        let first = IDGenerator.seeded(42)
        let second = IDGenerator.seeded(42)
        let a = (0..<5).map { _ in first.next() }
        #expect(a == (0..<5).map { _ in second.next() })
        #expect(Set(a).count == 5)
        #expect(a.allSatisfy { UUID(uuidString: $0.rawValue) != nil })
        #expect(IDGenerator.seeded(43).next() != a[0])
    }

    @Test func seededRandomIsUniformEnoughAndReplays() {
        var one = SeededRandom(seed: 7)
        var two = SeededRandom(seed: 7)
        let values = (0..<1_000).map { _ in one.nextUnit() }
        #expect(values == (0..<1_000).map { _ in two.nextUnit() })
        #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
        let mean = values.reduce(0, +) / Double(values.count)
        #expect(abs(mean - 0.5) < 0.05)
    }
}
