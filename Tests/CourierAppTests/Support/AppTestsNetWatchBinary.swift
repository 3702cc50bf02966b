import Foundation

/// Where the real `courier-netwatch` executable is, found as `AppTestsCourierBinary` finds `courier`; builds it when
/// a test run did not.
enum AppTestsNetWatchBinary {
    private static let name = "courier-netwatch"
    private static let located: Result<URL, AppTestsCourierBinaryError> = locate()

    /// The executable, or an error that says how to get one.
    static func url() throws -> URL { try located.get() }

    private static func candidates() -> [URL] {
        var urls: [URL] = []
        if let path = ProcessInfo.processInfo.environment["COURIER_NETWATCH_BINARY"] {
            urls.append(URL(fileURLWithPath: path))
        }
        // The test runner lives in the build products directory next to the executables.
        if let runner = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent(name))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        urls.append(AppTestsCourierBinary.packageRoot.appendingPathComponent(".build/debug/\(name)"))
        return urls
    }

    private static func existing() -> URL? {
        candidates().first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func locate() -> Result<URL, AppTestsCourierBinaryError> {
        if let url = existing() { return .success(url) }
        // A filtered or IDE run may not have built it: build it once.
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = [
            "swift", "build", "--product", name, "--package-path", AppTestsCourierBinary.packageRoot.path,
        ]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        do {
            try build.run()
            build.waitUntilExit()
        } catch {
            return .failure(AppTestsCourierBinaryError(detail: "could not run swift build: \(error)"))
        }
        if let url = existing() { return .success(url) }
        return .failure(
            AppTestsCourierBinaryError(
                detail:
                    "no \(name) next to the test runner or in .build/debug, and `swift build --product \(name)` did "
                    + "not make one (exit \(build.terminationStatus)); build it first or set COURIER_NETWATCH_BINARY"))
    }
}
