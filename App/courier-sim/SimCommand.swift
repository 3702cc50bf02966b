import CourierApp
import Foundation

/// `courier-sim`: a thin shell. The simulation lives in CourierApp, where tests can run it in process.
@main
enum SimCommand {
    static func main() async {
        let status = await SimulationCommand.run(arguments: Array(CommandLine.arguments.dropFirst())) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        exit(status)
    }
}
