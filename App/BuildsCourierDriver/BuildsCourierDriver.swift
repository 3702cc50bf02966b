import PackagePlugin

/// Builds the drivers (`courier-driver`, with the network backends, and `courier-driver-local`, the in-process world's
/// alone) whenever `courier` is built, without linking them into `courier`.
///
/// `courier` runs a one-shot send itself and hands every other invocation to the driver beside it (`execv`), so the
/// driver must be built with it — `swift run courier` on a fresh clone included. A target dependency would link the
/// driver's code and its libraries into `courier`, which is what keeps `courier … send` small (issue 33); a build
/// tool's dependency is built beside it and linked into nothing. SwiftPM builds them as `courier-driver-tool` and
/// `courier-driver-local-tool` in the same build directory, the names `courier` looks for first. The plugin adds no
/// build command.
@main
struct BuildsCourierDriver: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        _ = try context.tool(named: "courier-driver")
        _ = try context.tool(named: "courier-driver-local")
        return []
    }
}
