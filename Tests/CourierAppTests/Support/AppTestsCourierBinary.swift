import CourierTestSupport
import Foundation

/// Where the real `courier` executable is (`ProductBinary`; `COURIER_BINARY` names another).
enum AppTestsCourierBinary {
    /// The package root.
    static var packageRoot: URL { ProductBinary.packageRoot }

    /// The executable, or an error that says how to get one.
    static func url() throws -> URL { try ProductBinary.url("courier", environment: "COURIER_BINARY") }

    /// The `courier-server` executable, built next to `courier`.
    static func serverURL() throws -> URL {
        try url().deletingLastPathComponent().appendingPathComponent("courier-server")
    }
}
