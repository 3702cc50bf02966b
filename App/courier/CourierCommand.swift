import CourierApp
import Foundation

/// `courier`: a thin shell. Everything the driver does lives in CourierApp, where tests can run it in process.
@main
enum CourierCommand {
    static func main() async {
        exit(await DriverMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
    }
}
