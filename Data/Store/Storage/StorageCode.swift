import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one-byte codes of statuses and delivery errors on disk. Never renumber: old files must keep their meaning.
package enum StorageCode {
    static func code(of status: MessageStatus) -> UInt8 {
        switch status {
        case .queued: 1
        case .sending: 2
        case .sent: 3
        case .delivered: 4
        case .read: 5
        case .failed: 6
        }
    }

    static func status(_ code: UInt8) throws -> MessageStatus {
        switch code {
        case 1: .queued
        case 2: .sending
        case 3: .sent
        case 4: .delivered
        case 5: .read
        case 6: .failed
        default: throw RecordFormatError(description: "unknown status code \(code)")
        }
    }
}
