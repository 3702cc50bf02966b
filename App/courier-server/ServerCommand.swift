import CourierDomain
import CourierServer
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `courier-server --data-dir DIR [--port N] [--token-lifetime DURATION] [--dev-routes]`: serves the demo backend on
/// 127.0.0.1 until killed; the development routes (trimming every feed) only with `--dev-routes`.
@main
enum ServerCommand {
    static func main() {
        let usage = "usage: courier-server --data-dir DIR [--port N] [--token-lifetime DURATION] [--dev-routes]"
        var directory: String?
        var requestedPort: UInt16 = 0
        var tokenLifetime = MainActor.assumeIsolated { ChatServer.defaultTokenLifetime }
        var devRoutes = false
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--data-dir":
                guard let value = arguments.popFirst(), !value.isEmpty else {
                    FileHandle.standardError.write(Data("courier-server: --data-dir needs a value\n\(usage)\n".utf8))
                    exit(2)
                }
                directory = value
            case "--port":
                guard let value = arguments.popFirst(), let number = UInt16(value) else {
                    FileHandle.standardError.write(Data("courier-server: --port takes 0…65535\n\(usage)\n".utf8))
                    exit(2)
                }
                requestedPort = number
            case "--token-lifetime":
                guard let value = arguments.popFirst(), let lifetime = DurationText.parse(value), lifetime > .zero
                else {
                    FileHandle.standardError.write(
                        Data("courier-server: --token-lifetime takes a duration (30s, 15m, 1h, 7d)\n\(usage)\n".utf8))
                    exit(2)
                }
                tokenLifetime = lifetime
            case "--dev-routes":
                devRoutes = true
            default:
                FileHandle.standardError.write(Data("courier-server: unknown option \(argument)\n\(usage)\n".utf8))
                exit(2)
            }
        }
        guard let directory else {
            FileHandle.standardError.write(Data("courier-server: --data-dir is required\n\(usage)\n".utf8))
            exit(2)
        }
        signal(SIGPIPE, SIG_IGN)
        let server: ChatServer
        do {
            server = try MainActor.assumeIsolated {
                try ChatServer(
                    directory: URL(fileURLWithPath: directory), port: requestedPort, devRoutes: devRoutes,
                    tokenLifetime: tokenLifetime)
            }
        } catch {
            FileHandle.standardError.write(Data("courier-server: cannot start: \(error)\n".utf8))
            exit(3)
        }
        let boundPort = MainActor.assumeIsolated { server.port }
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(boundPort)\n".utf8))
        dispatchMain()
    }
}
