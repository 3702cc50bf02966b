import Foundation

/// The package's executables (`courier`, `courier-server`, `courier-bench`, …) for tests that run them as child
/// processes: found next to the test runner (where `swift test` builds every product), in `.build/debug`, or where
/// an environment variable says; built once with `swift build --product` when a filtered or IDE run did not.
public enum ProductBinary {
    /// The package root, from this file's place in it (Tests/CourierTestSupport/Processes/).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private static let cache = Cache()

    /// The executable of product `name` (`environment`, when set, names it instead), or an error that says how to get
    /// one. Looked for, and built if need be, once per run.
    public static func url(_ name: String, environment: String) throws -> URL {
        try cache.located(name) { locate(name, environment: environment) }.get()
    }

    /// Runs `executable` with `arguments` to its end, with this process's environment plus `environment`: its exit
    /// status and what it printed.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> ProductRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complained = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return ProductRun(status: process.terminationStatus, output: printed, errors: complained)
    }

    private static func candidates(_ name: String, environment: String) -> [URL] {
        var urls: [URL] = []
        if let path = ProcessInfo.processInfo.environment[environment] { urls.append(URL(fileURLWithPath: path)) }
        // The test runner lives in the build products directory next to the executables (Linux: the .xctest
        // executable; macOS: the .xctest bundle).
        if let runner = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent(name))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        urls.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        return urls
    }

    private static func existing(_ name: String, environment: String) -> URL? {
        candidates(name, environment: environment).first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func locate(_ name: String, environment: String) -> Result<URL, ProductBinaryError> {
        if let url = existing(name, environment: environment) { return .success(url) }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--product", name, "--package-path", packageRoot.path]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        do {
            try build.run()
            build.waitUntilExit()
        } catch {
            return .failure(ProductBinaryError(detail: "could not run swift build: \(error)"))
        }
        if let url = existing(name, environment: environment) { return .success(url) }
        return .failure(
            ProductBinaryError(
                detail: "no \(name) next to the test runner or in \(packageRoot.path)/.build/debug, and `swift build "
                    + "--product \(name)` did not make one (exit \(build.terminationStatus)); build it first or set "
                    + environment))
    }

    /// What was found for each product, behind a lock: tests on several threads ask at once.
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var found: [String: Result<URL, ProductBinaryError>] = [:]

        func located(
            _ name: String, _ locate: () -> Result<URL, ProductBinaryError>
        ) -> Result<URL, ProductBinaryError> {
            lock.withLock {
                if let known = found[name] { return known }
                let result = locate()
                found[name] = result
                return result
            }
        }
    }
}
