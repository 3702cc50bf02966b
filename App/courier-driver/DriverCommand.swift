import CourierApp
import CourierAppRemote
import Foundation

/// `courier-driver`: the driver with the network backends (`--server`, `--matrix`), which `courier` hands every
/// invocation but a one-shot send and a session of the in-process world to. A thin shell: everything it does lives
/// in CourierApp, where tests can run it in process.
@main
enum DriverCommand {
    static func main() async {
        await DriverMain.main(remotes: NetworkBackends())
    }
}
