import CourierConformance
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `courier-conformance --server URL --user ID --password P [--user2 ID --password2 P]`: checks a backend against
/// docs/http-api.md, one line per check, then a summary. Exits 0 when every check passed (skipped ones allowed), 1
/// when one failed, 2 for bad options.
@main
enum ConformanceCommand {
    static func main() async {
        let options: ConformanceOptions
        do {
            options = try ConformanceOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(
                Data("courier-conformance: \(error)\n\(ConformanceOptions.usage)\n".utf8))
            exit(2)
        }
        signal(SIGPIPE, SIG_IGN)
        let kit = ConformanceKit(options: options)
        let report = await kit.run { result in
            FileHandle.standardOutput.write(Data("\(result)\n".utf8))
        }
        FileHandle.standardOutput.write(Data("\(report.summary)\n".utf8))
        exit(report.passed ? 0 : 1)
    }
}
