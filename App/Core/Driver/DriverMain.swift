import CourierDomain
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `courier` program: options, input, output and exit status around a `Driver`.
public enum DriverMain {
    /// Runs the driver with `arguments` (without the program name) and returns the exit status.
    @MainActor
    public static func run(arguments: [String]) async -> Int32 {
        let options: DriverOptions
        do {
            options = try DriverOptions.parse(arguments)
        } catch {
            printError("courier: \(error)\n\(DriverOptions.usage)")
            return Driver.ExitStatus.badInvocation.rawValue
        }
        var scriptLines: [String]?
        if let path = options.scriptPath {
            // Read through a handle, not String(contentsOfFile:), which fails on pipes and devices
            // (`--script <(generate)`, `--script /dev/null`).
            guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() ?? Data(),
                let text = String(data: data, encoding: .utf8)
            else {
                printError("courier: cannot read script \(path)")
                return Driver.ExitStatus.badInvocation.rawValue
            }
            scriptLines = text.components(separatedBy: "\n")
        }
        let terminal = isatty(0) == 1 && scriptLines == nil
        // A person at a terminal gets line editing and history, and output that arrives between commands is
        // printed above the line being typed.
        let editor = terminal && !options.json ? LineEditor(prompt: "> ") : nil
        defer { editor?.restore() }
        let write: (String) -> Void = editor.map { editor in { editor.print($0) } } ?? printLine
        let driver: Driver
        do {
            driver = try Driver(options: options, inputIsTerminal: terminal, write: write)
        } catch {
            printError("courier: cannot open the data directory \(options.dataDirectory.path): \(error)")
            return Driver.ExitStatus.dataDirectoryUnavailable.rawValue
        }
        defer { driver.close() }
        await driver.start()
        if let scriptLines {
            return await driver.run(lines: scriptLines, stopOnFailure: true).rawValue
        }
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
        for await line in standardInputLines() {
            number += 1
            if !(await driver.execute(line: line, number: number)) {
                status = .commandFailed
                if !terminal { break }
            }
            if driver.quitRequested { break }
            prompt()
        }
        return status.rawValue
    }

    /// Lines of standard input, read on a thread of their own so timers keep firing while the driver waits.
    private static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while true {
                    guard let line = readLine(strippingNewline: true) else { break }
                    continuation.yield(line)
                }
                continuation.finish()
            }
            thread.start()
        }
    }

    private static func printLine(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
