// swift-tools-version:6.1
// Courier: an offline-first messaging core. One package, four layers, no dependencies beyond the toolchain.
import PackageDescription

let settings: [SwiftSetting] = [
    // Nonisolated async functions run on the caller's executor: a call from the main actor stays there, which is
    // what keeps driver scripts and simulations deterministic (docs/design.md §8).
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "Courier",
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "CourierDomain", targets: ["CourierDomain"]),
        .library(name: "CourierData", targets: ["CourierData"]),
        .library(name: "CourierFakes", targets: ["CourierFakes"]),
        .library(name: "CourierPresentation", targets: ["CourierPresentation"]),
        .library(name: "CourierApp", targets: ["CourierApp"]),
        .executable(name: "courier", targets: ["courier"]),
        .executable(name: "courier-bench", targets: ["courier-bench"]),
        .executable(name: "courier-sim", targets: ["courier-sim"]),
        .executable(name: "courier-server", targets: ["courier-server"]),
    ],
    targets: [
        .target(name: "CourierDomain", path: "Domain", swiftSettings: settings),
        .target(
            name: "CourierData", dependencies: ["CourierDomain"], path: "Data", exclude: ["Fakes"],
            swiftSettings: settings),
        // The simulated world: an in-memory backend, a network conditioner, a file system that can crash, demo data.
        // Its own product, so that an app linking CourierData ships none of it.
        .target(
            name: "CourierFakes", dependencies: ["CourierDomain", "CourierData"], path: "Data/Fakes",
            swiftSettings: settings),
        .target(
            name: "CourierPresentation", dependencies: ["CourierDomain"], path: "Presentation",
            swiftSettings: settings),
        .target(
            name: "CourierApp",
            dependencies: ["CourierDomain", "CourierData", "CourierFakes", "CourierPresentation"],
            path: "App/Core", swiftSettings: settings),
        .executableTarget(name: "courier", dependencies: ["CourierApp"], path: "App/Driver", swiftSettings: settings),
        .executableTarget(
            name: "courier-bench",
            dependencies: ["CourierDomain", "CourierData", "CourierFakes", "CourierApp", "CourierServer"],
            path: "App/Bench",
            swiftSettings: settings),
        .executableTarget(
            name: "courier-sim",
            dependencies: ["CourierDomain", "CourierData", "CourierFakes", "CourierPresentation", "CourierApp"],
            path: "App/Sim", swiftSettings: settings),
        .target(
            name: "CourierServer", dependencies: ["CourierDomain", "CourierData", "CourierFakes"],
            path: "App/ServerCore",
            swiftSettings: settings),
        .executableTarget(
            name: "courier-server", dependencies: ["CourierServer"], path: "App/Server", swiftSettings: settings),
        // Fixtures and fakes shared by the test targets.
        .target(
            name: "CourierTestSupport", dependencies: ["CourierDomain", "CourierData", "CourierFakes"],
            path: "Tests/CourierTestSupport", swiftSettings: settings),
        .testTarget(
            name: "CourierDomainTests", dependencies: ["CourierDomain", "CourierTestSupport"],
            path: "Tests/CourierDomainTests", swiftSettings: settings),
        .testTarget(
            name: "CourierDataTests",
            dependencies: ["CourierDomain", "CourierData", "CourierFakes", "CourierTestSupport"],
            path: "Tests/CourierDataTests", swiftSettings: settings),
        .testTarget(
            name: "CourierFakesTests",
            dependencies: ["CourierDomain", "CourierData", "CourierFakes", "CourierTestSupport"],
            path: "Tests/CourierFakesTests", swiftSettings: settings),
        .testTarget(
            name: "CourierPresentationTests",
            dependencies: ["CourierDomain", "CourierPresentation", "CourierTestSupport"],
            path: "Tests/CourierPresentationTests", swiftSettings: settings),
        .testTarget(
            name: "CourierServerTests",
            dependencies: ["CourierDomain", "CourierData", "CourierFakes", "CourierServer", "CourierTestSupport"],
            path: "Tests/CourierServerTests", swiftSettings: settings),
        // An app's view of the package: the library products only, no CourierApp and no @testable. It is the one test
        // target without CourierTestSupport, by design: an outside app has no access to the package's test fixtures.
        .testTarget(
            name: "CourierAdoptionTests", dependencies: ["CourierDomain", "CourierData", "CourierPresentation"],
            path: "Tests/CourierAdoptionTests", swiftSettings: settings),
        .testTarget(
            name: "CourierAppTests",
            dependencies: [
                "CourierDomain", "CourierData", "CourierFakes", "CourierPresentation", "CourierApp",
                "CourierTestSupport",
            ],
            path: "Tests/CourierAppTests", swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)
