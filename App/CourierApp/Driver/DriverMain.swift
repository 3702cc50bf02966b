import CourierData
import CourierDomain
import CourierOneShot
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `courier` program: options, input, output and exit status around a `Driver`.
public enum DriverMain {
    /// The homeserver's sign-in for `--matrix`: the one kept in the data directory when it is the same user's
    /// (`--fresh` forgets it), else a password login. Its full user id owns the data directory.
    @MainActor
    static func matrixSignIn(_ options: DriverOptions, remotes: any RemoteBackends) async throws -> SignInToken {
        guard let homeserver = options.matrix, let user = options.user else { throw DeliveryError.unauthorized }
        let path = WorldFiles.matrixTokenPath(in: options.dataDirectory)
        if !options.fresh, let kept = try? FileTokenStore(path: path).load(),
            kept.user.rawValue == user || remotes.matrixLocalPart(kept.user) == user
        {
            return kept
        }
        return try await remotes.matrixSignIn(homeserver: homeserver, user: user, password: options.password)
    }

    /// What a driver executable's `main` does: runs with the process's arguments and `remotes`, writes the memory map
    /// when `COURIER_MEMORY_MAP` asks (`MemoryMap.writeOwn`), and exits with the status.
    @MainActor
    public static func main(remotes: (any RemoteBackends)?) async -> Never {
        let status = await run(arguments: Array(CommandLine.arguments.dropFirst()), remotes: remotes)
        MemoryMap.writeOwn()
        exit(status)
    }

    /// What a one-shot send with `--server` sends through: the server's client, signed in with the data directory's
    /// token store.
    private static func oneShotSender(_ remotes: any RemoteBackends) -> OneShotSend.MakeSender {
        { server, user, directory, fileSystem in
            let tokens = FileTokenStore(path: WorldFiles.tokenPath(in: directory), fileSystem: fileSystem)
            let client: any CourierServerConnection = remotes.server(
                baseURL: server, user: user, password: WorldFiles.demoPassword, tokens: tokens, logger: .silent)
            return client
        }
    }

    /// Runs the driver with `arguments` (without the program name) and returns the exit status. `remotes` are the
    /// network backends the driver was built with: without them, `--server` and `--matrix` are refused (exit 2).
    @MainActor
    public static func run(arguments: [String], remotes: (any RemoteBackends)? = nil) async -> Int32 {
        var options: DriverOptions
        do {
            options = try DriverOptions.parse(arguments)
        } catch {
            printError("courier: \(error)\n\(DriverOptions.usage)")
            return Driver.ExitStatus.badInvocation.rawValue
        }
        if options.help {
            printLine(DriverOptions.usage)
            return Driver.ExitStatus.success.rawValue
        }
        if options.server != nil || options.matrix != nil, remotes == nil {
            let option = options.matrix != nil ? "--matrix" : "--server"
            printError("courier: \(NoRemoteBackends(option: option))")
            return Driver.ExitStatus.badInvocation.rawValue
        }
        if let oneShot = options.oneShot {
            guard !options.fresh, options.scriptPath == nil else {
                printError("courier: send takes no --fresh or --script\n\(DriverOptions.usage)")
                return Driver.ExitStatus.badInvocation.rawValue
            }
            return await OneShotSend.run(
                oneShot, options: options, write: printLine, warn: { printError("courier: \($0)") },
                makeSender: remotes.map(oneShotSender(_:)))
        }
        if options.matrix != nil, let remotes {
            do {
                options.matrixSignIn = try await matrixSignIn(options, remotes: remotes)
            } catch {
                printError("courier: cannot sign in to the homeserver: \(error)")
                return Driver.ExitStatus.dataDirectoryUnavailable.rawValue
            }
        }
        var scriptDescriptor: Int32?
        if let path = options.scriptPath {
            // Read through a descriptor, chunk by chunk: pipes and devices work (`--script <(generate)`), and no
            // input, however long, is held in memory whole.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                printError("courier: cannot read script \(path): \(String(cString: strerror(errno)))")
                return Driver.ExitStatus.badInvocation.rawValue
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
                close(descriptor)
                printError("courier: cannot read script \(path): it is a directory")
                return Driver.ExitStatus.badInvocation.rawValue
            }
            scriptDescriptor = descriptor
        }
        defer { if let scriptDescriptor { close(scriptDescriptor) } }
        let terminal = isatty(0) == 1 && scriptDescriptor == nil
        // A person at a terminal gets line editing and history, and output that arrives between commands is
        // printed above the line being typed.
        let editor = terminal && !options.json ? LineEditor(prompt: "> ") : nil
        defer { editor?.restore() }
        let write: (String) -> Void = editor.map { editor in { editor.print($0) } } ?? printLine
        let driver: Driver
        do {
            driver = try Driver(
                options: options, inputIsTerminal: terminal, write: write, warn: { printError("courier: \($0)") },
                remotes: remotes)
        } catch let error as DataDirectoryError {
            printError("courier: \(error)")
            return Driver.ExitStatus.badInvocation.rawValue
        } catch let reason as StoreError where reason.code == .ownedByAnotherUser {
            let path = options.dataDirectory.path
            printError("courier: cannot open the data directory \(path): \(reason); --fresh starts over")
            return Driver.ExitStatus.dataDirectoryUnavailable.rawValue
        } catch {
            printError("courier: cannot open the data directory \(options.dataDirectory.path): \(error)")
            return Driver.ExitStatus.dataDirectoryUnavailable.rawValue
        }
        defer { driver.close() }
        await driver.start()
        var status = Driver.ExitStatus.success
        var number = 0
        if terminal, !options.json { write("Courier driver — type 'help' for the commands.") }
        if let editor {
            while let line = await editor.readLine() {
                number += 1
                if !(await driver.execute(line: line, number: number)) { status = .commandFailed }
                if driver.quitRequested { break }
            }
            return status.rawValue
        }
        let prompt = { if terminal, !options.json { FileHandle.standardOutput.write(Data("> ".utf8)) } }
        prompt()
        let input = terminal ? terminalLines() : lines(from: scriptDescriptor ?? 0)
        while let line = await input.next() {
            number += 1
            let ok: Bool
            switch line {
            case .text(let text): ok = await driver.execute(line: text, number: number)
            case .notUTF8: ok = driver.reject(number: number, "the line is not valid UTF-8")
            case .tooLong: ok = driver.reject(number: number, "the line is longer than 1 MiB")
            case .unreadable(let why): ok = driver.reject(number: number, "the input cannot be read: \(why)")
            }
            if !ok {
                status = .commandFailed
                if !terminal { break }
            }
            if driver.quitRequested { break }
            prompt()
        }
        return status.rawValue
    }

    /// The lines of `descriptor`, read on a thread of their own so timers keep firing while the driver waits; the
    /// thread runs at most a batch of lines ahead of the driver (`LineChannel`).
    private static func lines(from descriptor: Int32) -> LineChannel {
        let channel = LineChannel()
        Thread {
            let reader = LineReader(fileDescriptor: descriptor)
            while let line = reader.next() { channel.put(line) }
            channel.finish()
        }.start()
        return channel
    }

    /// Lines typed at a terminal, handed over as they are typed.
    private static func terminalLines() -> LineChannel {
        let channel = LineChannel(capacity: 4)
        Thread {
            while let line = readLine(strippingNewline: true) { channel.put(.text(line)) }
            channel.finish()
        }.start()
        return channel
    }

    private static func printLine(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
