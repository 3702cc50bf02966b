/// How the simulated network behaves: latency, its jitter, and how many requests it loses (docs/driver.md).
public enum NetworkProfile: String, CaseIterable, Codable, Sendable {
    /// About 20 ms per round trip; nothing lost.
    case wifi
    /// About 300 ms per round trip, ± 100 ms; nothing lost.
    case threeG = "3g"
    /// 3g where 30 % of requests are lost: half before reaching the backend, half after the backend applied them
    /// (the response is lost). Either way the client sees a timeout.
    case flaky

    /// The round trip's typical duration.
    public var latency: Duration {
        switch self {
        case .wifi: .milliseconds(20)
        case .threeG, .flaky: .milliseconds(300)
        }
    }

    /// How far a round trip may stray from `latency`, either way.
    public var jitter: Duration {
        switch self {
        case .wifi: .milliseconds(5)
        case .threeG, .flaky: .milliseconds(100)
        }
    }

    /// The fraction of requests lost (half on the way out, half on the way back).
    public var lossRate: Double {
        switch self {
        case .wifi, .threeG: 0
        case .flaky: 0.3
        }
    }
}
