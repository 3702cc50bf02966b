import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

/// The headless driver: builds the app over a data directory, carries out one command per line and prints what a
/// screen would show (docs/driver.md is its contract).
@MainActor
public final class Driver {
    /// What a command printed.
    struct Output {
        var lines: [String]
        var json: JSONValue?
    }

    /// Renders a command's output once the work it started is done.
    typealias Render = @MainActor () -> Output

    /// Exit statuses.
    public typealias ExitStatus = DriverExitStatus

    let options: DriverOptions
    let clockMode: ClockMode
    let write: (String) -> Void
    /// Where warnings go (standard error for the program).
    let warn: (String) -> Void
    private var damageReported = 0
    let logger: Logger
    /// The network backends it was built with (nil: the in-process world only).
    let remotes: (any RemoteBackends)?
    var world: World
    var app: AppContainer
    var quitRequested = false
    /// Under the system clock: looks for messages other processes composed, twice a second (Driver+OtherProcesses).
    var otherProcessesWatch: TrackedTask<Void>?
    /// Prints banner, toast and alert changes as they happen (not with `--json`: one object per command there).
    let watcher: ScreenWatcher

    /// Opens the data directory (exit status 3 when that fails: locked, unreadable), through `fileSystem` (a
    /// simulated disk in tests). Damage that opening repaired is passed to `warn`, one line per file.
    public init(
        options: DriverOptions, inputIsTerminal: Bool, write: @escaping (String) -> Void,
        warn: @escaping (String) -> Void = { _ in }, logger: Logger = .silent,
        fileSystem: any FileSystem = PosixFileSystem(), remotes: (any RemoteBackends)? = nil
    ) throws {
        self.options = options
        self.remotes = remotes
        // A real server answers in real time, so virtual time would run out its timeouts while a request is on the
        // socket: with --server the default is the system clock.
        clockMode =
            options.clock
            ?? (options.server != nil || options.matrix != nil || (inputIsTerminal && options.scriptPath == nil)
                ? .system : .virtual)
        // Text from messages, names and input lines goes to a terminal: its control characters are shown, not obeyed.
        self.write = { write(Self.escaped($0)) }
        self.warn = { warn(Self.escaped($0)) }
        self.logger = logger
        watcher = ScreenWatcher(write: options.json ? { _ in } : { write(Self.escaped($0)) })
        world = try World(
            directory: options.dataDirectory, clockMode: clockMode, seed: options.seed, fresh: options.fresh,
            fileSystem: fileSystem, logger: logger, server: options.server,
            user: (options.matrixSignIn?.user.rawValue ?? options.user).map { UserID($0) },
            matrix: options.matrix.flatMap { homeserver in
                options.matrixSignIn.map {
                    MatrixConnection(homeserver: homeserver, signIn: $0, password: options.password)
                }
            }, remotes: remotes)
        do {
            app = try AppContainer(world: world, logger: logger)
        } catch {
            world.close()
            throw error
        }
        reportDamage()
    }

    /// Says out loud what opening the data directory had to skip, cut or replace and was not said yet: one warning
    /// per file (and settings field), as `storage.recovered` lists them.
    private func reportDamage() {
        for damage in world.recovered.dropFirst(damageReported) { warn("warning: recovered \(damage)") }
        damageReported = world.recovered.count
    }

    /// The `courier-server` the driver talks to (`--server`), if any.
    var courierServer: (any CourierServerConnection)? { world.network.remote as? any CourierServerConnection }

    /// A client of the `courier-server` at `server` signed in as `user`, a peer of the driver's user.
    func peer(_ user: UserID, at server: URL) throws -> any CourierServerConnection {
        guard let remotes else { throw DriverError.failed("\(NoRemoteBackends(option: "--server"))") }
        return remotes.server(
            baseURL: server, user: user, password: WorldFiles.demoPassword, tokens: nil, logger: .silent)
    }

    /// Refuses `command` under `--matrix`: it reads or drives Courier's own backend, and the homeserver's other
    /// people are real clients.
    func requireCourierBackend(_ command: String) throws {
        guard world.network.remote == nil || courierServer != nil else {
            throw DriverError.failed("\(command) is not available with --matrix: the other people are real clients")
        }
    }

    /// Lets the work started by opening the app finish (an automatic pass, a pending sync).
    public func start() async {
        watcher.follow(app)
        await waitForWork()
        watcher.betweenCommands = clockMode == .system
        if clockMode == .system { watchOtherProcesses() }
    }

    /// Runs `lines` in order; in script mode (`stopOnFailure`) it stops at the first failing line. Returns the
    /// exit status.
    public func run(lines: [String], stopOnFailure: Bool) async -> ExitStatus {
        var status = ExitStatus.success
        for (offset, line) in lines.enumerated() {
            let ok = await execute(line: line, number: offset + 1)
            if !ok {
                status = .commandFailed
                if stopOnFailure { break }
            }
            if quitRequested { break }
        }
        return status
    }

    /// Carries out one line and prints its result; returns false when the command failed.
    @discardableResult
    public func execute(line: String, number: Int) async -> Bool {
        guard let (word, arguments) = Self.command(in: line) else { return true }
        watcher.betweenCommands = false
        // What another process (a one-shot `send`) composed is on screen before the command looks.
        takeInOtherProcessesWork()
        defer { watcher.betweenCommands = clockMode == .system }
        let storageFailures = app.client.outbox.storageFailureCount
        defer { watcher.follow(app) }
        do {
            let render = try await perform(word, arguments)
            // Before waiting: what the command's work changes on screen prints as it happens.
            watcher.follow(app)
            await waitForWork()
            try? world.save()
            // Nothing is reported done that the disk did not take: a delivery or a failure the outbox could not
            // record fails the command, and says where the message is.
            if app.client.outbox.storageFailureCount != storageFailures,
                let failure = app.client.outbox.lastStorageFailure
            {
                throw DriverError.failed(failure)
            }
            emit(render(), command: word)
            return true
        } catch {
            await waitForWork()
            try? world.save()
            return reject(number: number, "\(error)")
        }
    }

    /// The command word of `line` and the rest of it (trimmed), or nil for a blank line or a `#` comment.
    nonisolated static func command(in line: String) -> (word: String, arguments: String)? {
        // Tabs separate words as spaces do (a message's text cannot hold one). A line without a tab, nearly every
        // one, skips the replacing: the full Foundation's `replacingOccurrences` was 3.5 % of 2,000 sends' CPU.
        let spaced = line.utf8.contains(UInt8(ascii: "\t")) ? line.replacingOccurrences(of: "\t", with: " ") : line
        let trimmed = spaced.trimmingWhitespace()
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let end = trimmed.firstIndex(of: " ") ?? trimmed.endIndex
        // The rest without the spaces that lead it (Foundation's `.whitespaces`: the space separators and the tab;
        // its end is trimmed already), looked at scalar by scalar, as `trimmingCharacters(in:)` trims.
        let rest = trimmed.unicodeScalars[end...].drop {
            $0 == " " || $0 == "\t" || (!$0.isASCII && $0.properties.generalCategory == .spaceSeparator)
        }
        return (String(trimmed[..<end]), String(rest))
    }

    /// Reports line `number` as a failed command (an input line that could not be read, or a command that failed);
    /// returns false.
    @discardableResult
    public func reject(number: Int, _ reason: String) -> Bool {
        let message = "line \(number): \(reason)"
        if options.json {
            write(JSONValue.object([("error", .string(message)), ("line", .int(number))]).text)
        } else {
            write("error: \(message)")
        }
        return false
    }

    /// `text` with every control character but none shown as an escape (`\u{1B}`), so that what a message or an
    /// input line holds cannot move the cursor, ring the bell or restyle the terminal — nor, with a bidirectional
    /// control (U+202E and its kin), show its characters in another order than they are.
    nonisolated static func escaped(_ text: String) -> String {
        // A control character's UTF-8 form holds a byte below 0x20, 0x7F, 0xC2 (U+0080…U+009F), 0xD8 (U+061C) or
        // 0xE2 (U+200E…U+2069): text without any of these bytes — nearly every line — is passed over by bytes,
        // without decoding scalars.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }),
            text.unicodeScalars.contains(where: isControl)
        else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private nonisolated static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        // Bidirectional controls: the Arabic letter mark, the marks, the embeddings and overrides, the isolates.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Closes the data directory.
    public func close() {
        otherProcessesWatch?.cancel()
        watcher.stop()
        try? world.save()
        app.close()
        world.close()
    }

    // MARK: - Output

    private func emit(_ output: Output, command: String) {
        if options.json {
            let json =
                output.json
                ?? .object([
                    ("ok", .bool(true)), ("command", .string(command)),
                    ("output", .array(output.lines.map { .string($0) })),
                ])
            write(json.text)
        } else {
            for line in output.lines { write(line) }
        }
    }

    // MARK: - Waiting

    /// Runs the clock until the work the last command started is done; every timer due on the way fires, in time
    /// order. Under the system clock it waits in real time.
    func waitForWork() async {
        if let clock = world.manualClock {
            let app = self.app
            // Nearly every command leaves nothing running, and then nothing is left to wait for.
            if clock.ledger?.runnableCount == 0, app.isIdle { return }
            let finished = await clock.run(until: { app.isIdle }, limit: .seconds(86_400 * 30))
            if !finished { logger.log(.warning, "driver: work still running after 30 days of virtual time") }
        } else {
            while !app.isIdle { try? await Task.sleep(nanoseconds: 5_000_000) }
        }
    }

    /// Starts async app work and counts it until done.
    func track(_ work: @escaping @MainActor () async -> Void) {
        app.tracker.run(work)
    }

    // MARK: - Restart

    /// Drops every in-memory object and rebuilds the app from the data directory; like a relaunched app, it comes
    /// back to the chat that was open.
    func restart() throws {
        let openChat = app.chat?.state.conversationID
        app.close()
        world.settings.countLaunch()
        try world.save()
        app = try AppContainer(world: world, logger: logger)
        reportDamage()
        if let openChat { app.openChat(openChat) }
    }
}
