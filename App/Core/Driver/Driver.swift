import CourierData
import CourierDomain
import CourierPresentation
import Foundation

/// The headless driver: builds the app over a data directory, carries out one command per line and prints what a
/// screen would show (DRIVER.md is its contract).
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
    public enum ExitStatus: Int32 {
        case success = 0, commandFailed = 1, badInvocation = 2, dataDirectoryUnavailable = 3
    }

    let options: DriverOptions
    let clockMode: ClockMode
    let write: (String) -> Void
    let logger: Logger
    var world: World
    var app: AppContainer
    var quitRequested = false
    /// Prints banner, toast and alert changes as they happen (not with `--json`: one object per command there).
    let watcher: ScreenWatcher

    /// Opens the data directory (exit status 3 when that fails: locked, unreadable).
    public init(options: DriverOptions, inputIsTerminal: Bool, write: @escaping (String) -> Void,
                logger: Logger = .silent) throws {
        self.options = options
        clockMode = options.clock ?? (inputIsTerminal && options.scriptPath == nil ? .system : .virtual)
        self.write = write
        self.logger = logger
        watcher = ScreenWatcher(write: options.json ? { _ in } : write)
        world = try World(
            directory: options.dataDirectory, clockMode: clockMode, seed: options.seed, fresh: options.fresh,
            logger: logger)
        do {
            app = try AppContainer(world: world, logger: logger)
        } catch {
            world.close()
            throw error
        }
    }

    /// Lets the work started by opening the app finish (an automatic pass, a pending sync).
    public func start() async {
        watcher.follow(app)
        await waitForWork()
        watcher.betweenCommands = clockMode == .system
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
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return true }
        watcher.betweenCommands = false
        defer { watcher.betweenCommands = clockMode == .system }
        let word = String(trimmed.prefix { $0 != " " })
        let arguments = String(trimmed.dropFirst(word.count)).trimmingCharacters(in: .whitespaces)
        defer { watcher.follow(app) }
        do {
            let render = try await perform(word, arguments)
            // Before waiting: what the command's work changes on screen prints as it happens.
            watcher.follow(app)
            await waitForWork()
            try? world.save()
            emit(render(), command: word)
            return true
        } catch {
            await waitForWork()
            try? world.save()
            let message = "line \(number): \(error)"
            if options.json {
                write(JSONValue.object([("error", .string(message)), ("line", .int(number))]).text)
            } else {
                write("error: \(message)")
            }
            return false
        }
    }

    /// Closes the data directory.
    public func close() {
        watcher.stop()
        try? world.save()
        app.close()
        world.close()
    }

    // MARK: - Output

    private func emit(_ output: Output, command: String) {
        if options.json {
            let json = output.json ?? .object([
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
            let finished = await clock.run(until: { app.isIdle }, limit: .seconds(86_400 * 30))
            if !finished { logger.log(.warning, "driver: work still running after 30 days of virtual time") }
        } else {
            while !app.isIdle { try? await Task.sleep(nanoseconds: 5_000_000) }
        }
    }

    /// Starts async app work and counts it until done.
    func track(_ work: @escaping @MainActor () async -> Void) {
        app.tracker.start(work)
    }

    // MARK: - Restart

    /// Drops every in-memory object and rebuilds the app from the data directory; like a relaunched app, it comes
    /// back to the chat that was open.
    func restart() throws {
        let openChat = app.chat?.state.conversationID
        app.close()
        world.settings.launches += 1
        try world.save()
        app = try AppContainer(world: world, logger: logger)
        if let openChat { app.openChat(openChat) }
    }
}
