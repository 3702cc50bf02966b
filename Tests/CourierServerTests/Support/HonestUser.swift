import CourierData
import CourierDomain
import CourierHTTP
import CourierServer
import CourierTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The user an attack must not hurt: `me`, sending into c2 through the real client, each send timed.
@MainActor
struct HonestUser {
    /// How a run of sends went.
    struct Run {
        /// Sends the server stored.
        var succeeded = 0
        /// Sends that failed, with why.
        var failures: [DeliveryError] = []
        /// Each successful send's time, sorted.
        var latencies: [Duration] = []

        /// The 99th percentile of the latencies (the slowest when there are fewer than 100).
        var p99: Duration {
            guard !latencies.isEmpty else { return .zero }
            return latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.99).rounded(.up)) - 1)]
        }
    }

    let client: HTTPChatClient

    /// Sends `count` messages one after another, each timed on the wall clock (what a user waits).
    func send(_ count: Int) async -> Run {
        var run = Run()
        for index in 0..<count {
            let started = ContinuousClock.now
            do {
                _ = try await client.send(ServerFixture.message("honest \(index)"))
                run.succeeded += 1
                run.latencies.append(started.duration(to: .now))
            } catch {
                run.failures.append(error)
            }
        }
        run.latencies.sort()
        return run
    }

    /// The resident set of this process (which holds the server under test), in bytes; 0 when unknown.
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
