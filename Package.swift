// swift-tools-version:6.1
// Courier: an offline-first messaging core. One package, four layers, no dependencies beyond the toolchain.
import PackageDescription

let settings: [SwiftSetting] = [
    // Nonisolated async functions run on the caller's executor: a call from the main actor stays there, which is
    // what keeps driver scripts and simulations deterministic (docs/design.md §8).
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

/// A library target of the package, in Swift 6 mode with the settings above.
func library(_ name: String, _ path: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: path, swiftSettings: settings)
}

/// An executable target; its sources are in `App/<folder>`.
func executable(
    _ name: String, _ dependencies: [Target.Dependency], plugins: [Target.PluginUsage] = []
) -> Target {
    .executableTarget(
        name: name, dependencies: dependencies, path: "App/\(name)", swiftSettings: settings, plugins: plugins)
}

/// A test target; its sources are in `Tests/<name>`.
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, path: "Tests/\(name)", swiftSettings: settings)
}

let package = Package(
    name: "Courier",
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "CourierDomain", targets: ["CourierDomain"]),
        .library(name: "CourierStore", targets: ["CourierStore"]),
        .library(name: "CourierData", targets: ["CourierData"]),
        .library(name: "CourierFakes", targets: ["CourierFakes"]),
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "CourierMatrix", targets: ["CourierMatrix"]),
        .library(name: "CourierPresentation", targets: ["CourierPresentation"]),
        .library(name: "CourierApp", targets: ["CourierApp"]),
        .executable(name: "courier", targets: ["courier"]),
        .executable(name: "courier-driver", targets: ["courier-driver"]),
        .executable(name: "courier-driver-local", targets: ["courier-driver-local"]),
        .executable(name: "courier-bench", targets: ["courier-bench"]),
        .executable(name: "courier-sim", targets: ["courier-sim"]),
        .executable(name: "courier-server", targets: ["courier-server"]),
        .executable(name: "courier-netwatch", targets: ["courier-netwatch"]),
        .library(name: "CourierConformance", targets: ["CourierConformance"]),
        .executable(name: "courier-conformance", targets: ["courier-conformance"]),
    ],
    targets: [
        library("CourierDomain", "Domain"),
        // Crash-safe storage, the durable outbox and the id space: what an app extension's send links, with nothing of
        // the caches, the sync engine or the HTTP clients, and only Foundation's essentials (docs/architecture.md).
        library("CourierStore", "Data/Store", ["CourierDomain"]),
        library("CourierData", "Data/Library", ["CourierDomain", "CourierStore"]),
        // The simulated world: an in-memory backend, a network conditioner, a file system that can crash, demo data.
        // Its own product, so that an app linking CourierData ships none of it.
        library("CourierFakes", "Data/Fakes", ["CourierDomain", "CourierData", "CourierDemoWorld"]),
        // The demo world's roster and network profiles, which the one-shot send reads without the simulated world.
        library("CourierDemoWorld", "Data/DemoWorld", ["CourierDomain"]),
        // The client of Courier's own server over HTTP (docs/http-api.md) and the transfers it makes: the one part of
        // the data layer that needs URLSession, so that CourierData links no networking stack (issue 33).
        library("CourierHTTP", "Data/HTTP", ["CourierDomain", "CourierStore", "CourierData"]),
        // Courier over a Matrix homeserver (the Client-Server API, URLSession only): a backend Courier did not write.
        library("CourierMatrix", "Data/Matrix", ["CourierDomain", "CourierData", "CourierHTTP"]),
        library("CourierPresentation", "Presentation", ["CourierDomain"]),
        // The driver's files and options and its one-shot send: what `courier … send` runs, on CourierStore and
        // Foundation's essentials alone (issue 33).
        library("CourierOneShot", "App/CourierOneShot", ["CourierDomain", "CourierStore", "CourierDemoWorld"]),
        library(
            "CourierApp", "App/CourierApp",
            [
                "CourierDomain", "CourierData", "CourierFakes", "CourierPresentation", "CourierOneShot",
            ]),
        library("CourierServer", "App/CourierServer", ["CourierDomain", "CourierData", "CourierFakes"]),
        // `courier`: runs a one-shot send itself and hands every other invocation to `courier-driver` (exec), which
        // the plugin has built beside it without linking it in.
        executable("courier", ["CourierOneShot"], plugins: ["BuildsCourierDriver"]),
        // The network backends the full driver is built with (CourierHTTP, CourierMatrix), apart from CourierApp so
        // that the driver of the in-process world links no networking stack (issue 33).
        library(
            "CourierAppRemote", "App/CourierAppRemote",
            ["CourierDomain", "CourierData", "CourierHTTP", "CourierMatrix", "CourierApp"]),
        executable("courier-driver", ["CourierApp", "CourierAppRemote"]),
        executable("courier-driver-local", ["CourierApp"]),
        .plugin(
            name: "BuildsCourierDriver", capability: .buildTool(),
            dependencies: ["courier-driver", "courier-driver-local"],
            path: "App/BuildsCourierDriver"),
        // The benchmarks, a library so that tests reach their parts; `courier-bench` is a thin command over it.
        library(
            "CourierBench", "App/CourierBench",
            [
                "CourierDomain", "CourierData", "CourierFakes", "CourierHTTP", "CourierMatrix", "CourierApp",
                "CourierAppRemote", "CourierServer",
            ]),
        executable("courier-bench", ["CourierBench"]),
        executable(
            "courier-sim",
            ["CourierDomain", "CourierData", "CourierFakes", "CourierPresentation", "CourierApp"]),
        executable("courier-server", ["CourierDomain", "CourierServer"]),
        // The conformance kit checks any backend against docs/http-api.md over HTTP, so it knows the contract's
        // bodies (CourierData's HTTPWire) and nothing of courier-server or the fakes.
        library("CourierConformance", "App/CourierConformance", ["CourierDomain", "CourierData", "CourierHTTP"]),
        executable("courier-conformance", ["CourierConformance"]),
        // The platform's path monitor on the real network: one line per change.
        executable("courier-netwatch", ["CourierDomain", "CourierData"]),
        // Fixtures and fakes shared by the test targets.
        library(
            "CourierTestSupport", "Tests/CourierTestSupport",
            ["CourierDomain", "CourierData", "CourierFakes", "CourierHTTP", "CourierServer"]),
        tests("CourierDomainTests", ["CourierDomain", "CourierTestSupport"]),
        tests(
            "CourierDataTests",
            ["CourierDomain", "CourierData", "CourierFakes", "CourierHTTP", "CourierServer", "CourierTestSupport"]),
        tests("CourierFakesTests", ["CourierDomain", "CourierData", "CourierFakes", "CourierTestSupport"]),
        tests("CourierPresentationTests", ["CourierDomain", "CourierPresentation", "CourierTestSupport"]),
        tests(
            "CourierServerTests",
            [
                "CourierDomain", "CourierData", "CourierFakes", "CourierHTTP", "CourierServer", "CourierTestSupport",
                "CourierBench",
            ]),
        tests(
            "CourierConformanceTests",
            [
                "CourierDomain", "CourierData", "CourierFakes", "CourierServer", "CourierConformance",
                "CourierTestSupport",
            ]),
        // The Matrix adapter against a real Synapse, installed under .build on first use and started by the suite.
        tests("CourierMatrixTests", ["CourierDomain", "CourierData", "CourierMatrix", "CourierTestSupport"]),
        // An app's view of the package: the library products only, no CourierApp and no @testable. It is the one test
        // target without CourierTestSupport, by design: an outside app has no access to the package's test fixtures.
        tests("CourierAdoptionTests", ["CourierDomain", "CourierData", "CourierPresentation"]),
        tests(
            "CourierAppTests",
            [
                "CourierDomain", "CourierData", "CourierFakes", "CourierHTTP", "CourierPresentation", "CourierApp",
                "CourierAppRemote", "CourierTestSupport", "CourierBench",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
