import Foundation

/// The real `courier-conformance` executable: next to the test runner (where `swift test` builds every product), in
/// `.build/debug`, or at `COURIER_CONFORMANCE_BINARY`; built once when a filtered run did not.
enum ConformanceBinary {
    private static let name = "courier-conformance"
    /// The package root, from this file's place in it (Tests/CourierConformanceTests/Support/).
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let located: URL? = locate()

    /// What one run printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the executable with `arguments` to its end; throws when there is none to run.
    static func run(_ arguments: [String]) throws -> Run {
        guard let located else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name]) }
        let process = Process()
        process.executableURL = located
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complained = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: printed, errors: complained)
    }

    private static func candidates() -> [URL] {
        var urls: [URL] = []
        if let path = ProcessInfo.processInfo.environment["COURIER_CONFORMANCE_BINARY"] {
            urls.append(URL(fileURLWithPath: path))
        }
        if let runner = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent(name))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        urls.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        return urls
    }

    private static func existing() -> URL? {
        candidates().first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func locate() -> URL? {
        if let url = existing() { return url }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--product", name, "--package-path", packageRoot.path]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        guard (try? build.run()) != nil else { return nil }
        build.waitUntilExit()
        return existing()
    }
}
