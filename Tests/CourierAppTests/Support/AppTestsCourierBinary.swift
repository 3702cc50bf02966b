import Foundation

/// Where the real `courier` executable is; builds it when a test run did not.
enum AppTestsCourierBinary {
    /// The package root, from this file's place in it (Tests/CourierAppTests/Support/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let located: Result<URL, AppTestsCourierBinaryError> = locate()

    /// The executable, or an error that says how to get one.
    static func url() throws -> URL { try located.get() }

    /// The `courier-server` executable, built next to `courier`.
    static func serverURL() throws -> URL {
        try url().deletingLastPathComponent().appendingPathComponent("courier-server")
    }

    private static func candidates() -> [URL] {
        var urls: [URL] = []
        if let path = ProcessInfo.processInfo.environment["COURIER_BINARY"] { urls.append(URL(fileURLWithPath: path)) }
        // The test runner lives in the build products directory next to the executables (Linux: the .xctest
        // executable; macOS: the .xctest bundle).
        if let runner = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("courier"))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("courier"))
        }
        urls.append(packageRoot.appendingPathComponent(".build/debug/courier"))
        return urls
    }

    private static func existing() -> URL? {
        candidates().first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func locate() -> Result<URL, AppTestsCourierBinaryError> {
        if let url = existing() { return .success(url) }
        // `swift test` builds every product here, but a filtered or IDE run may not have: build it once.
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--product", "courier", "--package-path", packageRoot.path]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        do {
            try build.run()
            build.waitUntilExit()
        } catch {
            return .failure(AppTestsCourierBinaryError(detail: "could not run swift build: \(error)"))
        }
        if let url = existing() { return .success(url) }
        return .failure(AppTestsCourierBinaryError(
            detail: "no courier executable next to the test runner or in \(packageRoot.path)/.build/debug, and "
                + "`swift build --product courier` did not make one (exit \(build.terminationStatus)); build it first "
                + "or set COURIER_BINARY"))
    }
}
