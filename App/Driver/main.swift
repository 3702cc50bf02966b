import CourierApp
import Foundation

// A thin shell: everything the driver does lives in CourierApp, where tests can run it in process.
let status = await DriverMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
