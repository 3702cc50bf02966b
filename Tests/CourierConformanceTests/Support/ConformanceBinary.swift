import CourierTestSupport
import Foundation

/// The real `courier-conformance` executable (`ProductBinary`; `COURIER_CONFORMANCE_BINARY` names another).
enum ConformanceBinary {
    /// Runs the executable with `arguments` to its end; throws when there is none to run.
    static func run(_ arguments: [String]) throws -> ProductRun {
        try ProductBinary.run(
            ProductBinary.url("courier-conformance", environment: "COURIER_CONFORMANCE_BINARY"), arguments)
    }
}
