import CourierApp
import Foundation

/// `courier-driver`: the driver, which `courier` hands every invocation but a one-shot send to. A thin shell:
/// everything it does lives in CourierApp, where tests can run it in process.
@main
enum DriverCommand {
    static func main() async {
        let status = await DriverMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
        // What it held resident, for `courier-bench memory` when it asks (`COURIER_MEMORY_MAP`).
        MemoryMap.writeOwn()
        exit(status)
    }
}
