import CourierApp
import Foundation

// A thin shell: the simulation lives in CourierApp, where tests can run it in process.
let status = await SimulationCommand.run(arguments: Array(CommandLine.arguments.dropFirst())) { line in
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
exit(status)
