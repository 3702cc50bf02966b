import CourierTestSupport
import Foundation
import Testing

extension AppTestsChildProcesses {
    /// The Linux path monitor on a real kernel: `courier-netwatch` runs in a network namespace of its own, where a
    /// script builds a veth link, gives it an address and a default route, and takes it down and up again.
    @Suite("courier-netwatch in a network namespace")
    struct NetWatchNamespaceTests {
        /// The script: starts the watcher (its lines go to a file, printed when the script ends, which ends the
        /// watcher too) and waits for its first line; then makes one change at a time, printing `step NAME BEFORE
        /// AFTER` (the wall-clock times around the command), waiting for the watcher's next line (at most 1.2 s) and
        /// 0.3 s more, in which a report too many would show.
        private static let script = """
            set -e
            export PATH=/usr/sbin:/sbin:/usr/bin:/bin:$PATH
            out=$(mktemp)
            "$NETWATCH" --timestamps > "$out" 2>&1 &
            watcher=$!
            trap 'kill -KILL $watcher 2>/dev/null || true; cat "$out"; rm -f "$out"' EXIT
            await() {
                tries=0
                while [ "$(wc -l < "$out")" -lt "$1" ] && [ $tries -lt 24 ]; do tries=$((tries + 1)); sleep 0.05; done
                sleep 0.3
            }
            change() {
                name=$1; reports=$2; shift 2
                before=$(date +%s.%N); "$@"; after=$(date +%s.%N)
                echo "step $name $before $after"
                await "$reports"
            }
            relink() { ip link set veth0 up; ip route add default via 10.9.0.2; }
            await 1
            ip link add veth0 type veth peer name veth1
            ip addr add 10.9.0.1/24 dev veth0
            ip link set veth1 up
            ip link set veth0 up
            sleep 0.3
            change route 2 ip route add default via 10.9.0.2
            change carrier-off 3 ip link set veth1 down
            change carrier-on 4 ip link set veth1 up
            change link-down 5 ip link set veth0 down
            change link-up 6 relink
            """

        private static let unsatisfied = "path: unsatisfied none (expensive: no, constrained: no)"
        private static let wired = "path: satisfied wired (expensive: no, constrained: no)"

        @Test(
            "each change of the link is reported once, in order, within a second of the change",
            .enabled(if: AppTestsNamespace.isAvailable, "`unshare -rn` fails here: no unprivileged network namespace"),
            .timeLimit(.minutes(1)))
        func changesAreReportedWithinASecond() throws {
            // Given a namespace with only its loopback (down), watched
            let netwatch = try ProductBinary.url("courier-netwatch", environment: "COURIER_NETWATCH_BINARY")
            let outcome = try AppTestsNamespace.run(Self.script, environment: ["NETWATCH": netwatch.path], timeout: 10)
            try #require(
                outcome.status == 0, "the script failed (\(outcome.status)): \(outcome.errors)\(outcome.output)")

            // When a veth link gets an address and a default route, loses its carrier and gets it back, goes down
            // and comes up with its route again
            let steps = Self.steps(in: outcome.output)
            let reports = Self.reports(in: outcome.output)
            try #require(steps.map(\.name) == ["route", "carrier-off", "carrier-on", "link-down", "link-up"])

            // Then the watcher reported no path first, then each change once, in order: none → wired satisfied →
            // unsatisfied → satisfied → unsatisfied → satisfied
            let expected = [Self.unsatisfied, Self.wired, Self.unsatisfied, Self.wired, Self.unsatisfied, Self.wired]
            try #require(reports.map(\.text) == expected, "\(outcome.output)")
            #expect(reports[0].time < steps[0].before, "the first path is the one before any change")

            // And each within a second of its change (and before the next change)
            var latencies: [String] = []
            for (index, step) in steps.enumerated() {
                let report = reports[index + 1]
                let latency = report.time - step.before
                latencies.append(
                    "\(step.name): \(Self.milliseconds(latency)) ms after the command began, "
                        + "\(Self.milliseconds(report.time - step.after)) ms after it returned")
                #expect(latency >= 0 && latency < 1, "\(step.name) reported \(latency) s after the change")
                if index + 1 < steps.count {
                    #expect(report.time < steps[index + 1].before, "\(step.name) reported only after the next change")
                }
            }
            Attachment.record(latencies.joined(separator: "\n") + "\n", named: "netwatch-latencies.txt")
        }

        /// `step NAME BEFORE AFTER` lines.
        private static func steps(in output: String) -> [(name: String, before: Double, after: Double)] {
            output.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count == 4, fields[0] == "step", let before = Double(fields[2]),
                    let after = Double(fields[3])
                else { return nil }
                return (String(fields[1]), before, after)
            }
        }

        private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

        /// `TIME path: …` lines, the watcher's.
        private static func reports(in output: String) -> [(time: Double, text: String)] {
            output.split(separator: "\n").compactMap { line in
                guard let space = line.firstIndex(of: " "), let time = Double(line[..<space]) else { return nil }
                let text = line[line.index(after: space)...]
                guard text.hasPrefix("path: ") else { return nil }
                return (time, String(text))
            }
        }
    }
}
