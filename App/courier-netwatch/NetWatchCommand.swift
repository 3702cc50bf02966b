import CourierData
import CourierDomain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `courier-netwatch [--once] [--timestamps]`: the platform's path monitor on the real network. Prints the current
/// path, then one line per change, until killed:
///
///     path: satisfied wired (expensive: no, constrained: no)
///
/// `--once` prints the current path and exits; `--timestamps` starts each line with the wall-clock time in seconds
/// (`1718000000.123456`, as `date +%s.%N` prints it), so that a script can measure how soon a change was reported.
@main
enum NetWatchCommand {
    static func main() {
        let usage = "usage: courier-netwatch [--once] [--timestamps]"
        var once = false
        var timestamps = false
        for argument in CommandLine.arguments.dropFirst() {
            switch argument {
            case "--once": once = true
            case "--timestamps": timestamps = true
            default:
                FileHandle.standardError.write(Data("courier-netwatch: unknown option \(argument)\n\(usage)\n".utf8))
                exit(2)
            }
        }
        MainActor.assumeIsolated {
            let monitor: any PathMonitor
            do {
                monitor = try makeMonitor()
            } catch {
                FileHandle.standardError.write(Data("courier-netwatch: cannot watch the path: \(error)\n".utf8))
                exit(3)
            }
            if once {
                FileHandle.standardOutput.write(Data(line(for: monitor.path, timestamps: timestamps).utf8))
                exit(0)
            }
            // Observed for the life of the process: the token is never released.
            let token = monitor.observe { path in
                FileHandle.standardOutput.write(Data(line(for: path, timestamps: timestamps).utf8))
            }
            withExtendedLifetime((monitor, token)) { dispatchMain() }
        }
    }

    /// The monitor of the platform this runs on.
    @MainActor
    private static func makeMonitor() throws -> any PathMonitor {
        #if os(Linux)
            return try LinuxPathMonitor()
        #elseif canImport(Network)
            return ApplePathMonitor()
        #else
            throw NetWatchUnsupported()
        #endif
    }

    /// One printed line: `path: satisfied wired (expensive: no, constrained: no)`, after the time if asked.
    static func line(for path: NetworkPath, timestamps: Bool) -> String {
        let flags = "expensive: \(path.isExpensive ? "yes" : "no"), constrained: \(path.isConstrained ? "yes" : "no")"
        let text = "path: \(path.status.rawValue) \(path.type.rawValue) (\(flags))\n"
        return timestamps ? "\(wallClock()) \(text)" : text
    }

    /// The wall-clock time in seconds, to the microsecond.
    private static func wallClock() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let micros = String(Int(now.tv_nsec) / 1000)
        return "\(now.tv_sec).\(String(repeating: "0", count: 6 - micros.count))\(micros)"
    }
}
