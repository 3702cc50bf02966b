import CourierDomain
import Testing

@testable import CourierData
@testable import CourierStore

@Suite("The system path rule")
struct NWPathFactsTests {
    @Test("an unsatisfied path is unavailable, whatever else it says")
    func unsatisfied() {
        let facts = NWPathFacts(status: .unsatisfied, interfaceTypes: [.wifi], isExpensive: true, isConstrained: true)
        #expect(facts.networkPath == .unavailable)
    }

    @Test("a satisfied path keeps the system's flags")
    func flags() {
        let facts = NWPathFacts(status: .satisfied, interfaceTypes: [.cellular], isExpensive: true, isConstrained: true)
        #expect(
            facts.networkPath
                == NetworkPath(status: .satisfied, type: .cellular, isExpensive: true, isConstrained: true))
    }

    @Test("a path that needs a connection to come up counts as satisfied, so that the backend can be tried")
    func requiresConnection() {
        let facts = NWPathFacts(status: .requiresConnection, interfaceTypes: [.cellular], isExpensive: true)
        #expect(facts.networkPath == NetworkPath(status: .satisfied, type: .cellular, isExpensive: true))
    }

    /// The media a path uses, and the type it is reported as.
    static let media: [(Set<ConnectionType>, ConnectionType)] = [
        ([.wifi], .wifi),
        ([.cellular], .cellular),
        ([.wired], .wired),
        ([.other], .other),
        ([.other, .wifi], .wifi),
        ([.wired, .cellular], .cellular),
        ([.other, .wired], .wired),
        ([.wifi, .cellular, .wired, .other], .wifi),
        ([], .other),
        ([.none], .other),
    ]

    @Test("the type is the first medium used, in the order Wi-Fi, cellular, wired, other", arguments: media)
    func type(interfaceTypes: Set<ConnectionType>, type: ConnectionType) {
        let facts = NWPathFacts(status: .satisfied, interfaceTypes: interfaceTypes)
        #expect(facts.networkPath == NetworkPath(status: .satisfied, type: type))
    }
}
