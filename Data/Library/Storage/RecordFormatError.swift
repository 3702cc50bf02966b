import CourierDomain
import Foundation

/// A stored value that the domain cannot take, or a malformed record body.
struct RecordFormatError: Error, CustomStringConvertible {
    let description: String
}
