/// A delivery error as a record stores it: a stable one-byte case code, plus the number or reason that
/// some cases carry.
package struct StoredDeliveryError: Equatable {
    var code: UInt8
    var number: Int?
    var reason: String?
}
