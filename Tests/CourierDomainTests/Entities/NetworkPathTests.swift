import CourierDomain
import Foundation
import Testing

@Suite struct NetworkPathTests {
    @Test func connectionTypesAreNamedByTheirWords() {
        #expect(ConnectionType.allCases.map(\.rawValue) == ["wifi", "cellular", "wired", "other", "none"])
        #expect(NetworkPath.Status.allCases.map(\.rawValue) == ["satisfied", "unsatisfied"])
    }

    @Test func theUnavailablePathHasNoMediumAndNoFlags() {
        let path = NetworkPath.unavailable
        #expect(!path.isSatisfied)
        #expect(path == NetworkPath(status: .unsatisfied, type: .none, isExpensive: false, isConstrained: false))
    }

    @Test func pathsDifferByEachOfTheirFacts() {
        let base = NetworkPath(status: .satisfied, type: .wifi)
        #expect(base.isSatisfied)
        #expect(base != NetworkPath(status: .satisfied, type: .cellular))
        #expect(base != NetworkPath(status: .satisfied, type: .wifi, isExpensive: true))
        #expect(base != NetworkPath(status: .satisfied, type: .wifi, isConstrained: true))
        #expect(base != NetworkPath(status: .unsatisfied, type: .wifi))
    }

    @Test func aPathEncodesAsItsWords() throws {
        // Given a path, when it is encoded and decoded
        let path = NetworkPath(status: .satisfied, type: .cellular, isExpensive: true, isConstrained: false)
        let data = try JSONEncoder().encode(path)
        // Then the words are in the text and the value comes back whole
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"satisfied\"") && text.contains("\"cellular\""))
        #expect(try JSONDecoder().decode(NetworkPath.self, from: data) == path)
    }
}
