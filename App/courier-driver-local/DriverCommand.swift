import CourierApp
import Foundation

/// `courier-driver-local`: the driver of the in-process world, built without the network backends, so it maps no
/// networking stack (issue 33). `courier` hands it every session without `--server` or `--matrix`; given one of
/// those it says it needs `courier-driver` and exits 2.
@main
enum DriverCommand {
    static func main() async {
        await DriverMain.main(remotes: nil)
    }
}
