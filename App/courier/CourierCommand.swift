import CourierOneShot

#if canImport(Glibc)
    import Glibc

    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin

    private let systemWrite = Darwin.write
#endif

/// `courier`: what an app extension's one-shot send runs, and the door to the driver.
///
/// A one-shot send on the driver's own world (`courier [--data-dir DIR] [--user ID] send ID TEXT…`, no `--server`)
/// runs here, in a process that maps CourierStore and Foundation's essentials and nothing of the driver, the HTTP
/// clients or FoundationNetworking. Every other invocation — a session, a script, `--help`, a send with
/// `--server`, and any invocation this process cannot parse — is handed to a driver beside this executable by
/// `execv`: the same process (its id, its standard streams, its signals) goes on as the driver, which parses the
/// arguments again and answers exactly as it always has. An invocation with `--server` or `--matrix` (or one that
/// does not parse) goes to `courier-driver`; any other to `courier-driver-local`, the same driver built without the
/// network backends.
@main
enum CourierCommand {
    @MainActor
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let options = try? DriverOptions.parse(arguments)
        if let options, let send = options.oneShot, OneShotSend.runsWithoutDriver(options) {
            exit(
                await OneShotSend.run(
                    send, options: options, write: { write($0, to: 1) }, warn: { write("courier: \($0)", to: 2) }))
        }
        // Only `--server` and `--matrix` reach a network: anything else runs on the driver built without the
        // network backends, which maps no networking stack (an invocation that does not parse goes to the full
        // driver, which answers it as it always has).
        handOverToDriver(local: options.map { $0.server == nil && $0.matrix == nil } ?? false)
    }

    /// Replaces this process by a driver beside this executable, with the same arguments: `courier-driver-tool`,
    /// the build `courier`'s own build makes (`BuildsCourierDriver`), else `courier-driver` — or, when `local`,
    /// `courier-driver-local-tool` or `courier-driver-local` first. Never returns: when none starts, it says so
    /// and exits with status 127.
    private static func handOverToDriver(local: Bool) -> Never {
        let directory = executableDirectory()
        let names =
            (local ? ["courier-driver-local-tool", "courier-driver-local"] : [])
            + ["courier-driver-tool", "courier-driver"]
        let driver =
            names.map { directory + "/" + $0 }.first { access($0, X_OK) == 0 } ?? directory + "/courier-driver"
        var argv: [UnsafeMutablePointer<CChar>?] = ([driver] + CommandLine.arguments.dropFirst()).map { strdup($0) }
        argv.append(nil)
        execv(driver, argv)
        let reason = String(cString: strerror(errno))
        write("courier: cannot start \(driver): \(reason)", to: 2)
        exit(127)
    }

    /// The directory this executable was started from.
    private static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        #if canImport(Darwin)
            var size = UInt32(buffer.count)
            let count = _NSGetExecutablePath(&buffer, &size) == 0 ? buffer.firstIndex(of: 0) ?? 0 : 0
        #else
            let count = max(0, readlink("/proc/self/exe", &buffer, buffer.count - 1))
        #endif
        let path =
            count > 0
            ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Writes `text` and a line feed to the descriptor, whole (a write may take part of it).
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array((text + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
