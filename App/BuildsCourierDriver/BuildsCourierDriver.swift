import PackagePlugin

/// Builds `courier-driver` whenever `courier` is built, without linking it into `courier`.
///
/// `courier` runs a one-shot send itself and hands every other invocation to the driver beside it (`execv`), so the
/// driver must be built with it — `swift run courier` on a fresh clone included. A target dependency would link the
/// driver's code and its libraries into `courier`, which is what keeps `courier … send` small (issue 33); a build
/// tool's dependency is built beside it and linked into nothing. SwiftPM builds it as `courier-driver-tool` in the
/// same build directory, which is the name `courier` looks for first. The plugin adds no build command.
@main
struct BuildsCourierDriver: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        _ = try context.tool(named: "courier-driver")
        return []
    }
}
