import CourierDomain
import CourierStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which clock the driver runs on.
public enum ClockMode: String, Sendable {
    /// Time moves only through `advance` and simulated latency, backoff and timeouts: scripts replay exactly.
    case virtual
    /// Real time.
    case system
}
