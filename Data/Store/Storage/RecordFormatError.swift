import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A stored value that the domain cannot take, or a malformed record body.
package struct RecordFormatError: Error, CustomStringConvertible {
    package let description: String

    /// An error that says `description`.
    package init(description: String) { self.description = description }
}
