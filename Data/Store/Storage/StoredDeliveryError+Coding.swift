import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StoredDeliveryError {
    /// The stored form of `error` (the codes of docs/storage-format.md §3; never renumbered).
    package init(_ error: DeliveryError) {
        switch error.kind {
        case .offline: self.init(code: 1)
        case .timeout: self.init(code: 2)
        case .server(let code): self.init(code: 3, number: code)
        case .unauthorized: self.init(code: 4)
        case .forbidden: self.init(code: 5)
        case .validation(let reason): self.init(code: 6, reason: reason)
        case .notFound: self.init(code: 7)
        case .unknown(let text): self.init(code: 8, reason: text)
        case .conflict: self.init(code: 9)
        case .unreachable: self.init(code: 10)
        case .rateLimited(let wait): self.init(code: 11, number: Int(wait.components.seconds))
        case .cancelled: self.init(code: 12)
        case .unanswered: self.init(code: 13)
        }
    }

    /// Writes the `error` layout: code, then the number and reason when present.
    package func write(to writer: inout BinaryRecordWriter) {
        writer.byte(code)
        writer.optional(number) { $0.int($1) }
        writer.optional(reason) { $0.string($1) }
    }

    /// Reads what `write(to:)` wrote.
    package init(reading reader: inout BinaryRecordReader) throws {
        self.init(
            code: try reader.byte(), number: try reader.optional { try $0.int() },
            reason: try reader.optional { try $0.string() })
    }
}

extension BinaryRecordWriter {
    /// Writes `value` in the `error` layout (docs/storage-format.md §3).
    package mutating func error(_ value: DeliveryError) { StoredDeliveryError(value).write(to: &self) }
}

extension BinaryRecordReader {
    /// Reads an error in the `error` layout; throws for an unknown code.
    package mutating func error() throws -> DeliveryError { try DeliveryError(StoredDeliveryError(reading: &self)) }
}

extension DeliveryError {
    /// The error a stored one describes.
    package init(_ stored: StoredDeliveryError) throws {
        switch stored.code {
        case 1: self = .offline
        case 2: self = .timeout
        case 3: self = .server(code: stored.number ?? 500)
        case 4: self = .unauthorized
        case 5: self = .forbidden
        case 6: self = .validation(reason: stored.reason ?? "")
        case 7: self = .notFound
        case 8: self = .unknown(stored.reason ?? "")
        case 9: self = .conflict
        case 10: self = .unreachable
        case 11: self = .rateLimited(retryAfter: .seconds(max(0, stored.number ?? 1)))
        case 12: self = .cancelled
        case 13: self = .unanswered
        default: throw RecordFormatError(description: "unknown delivery error code \(stored.code)")
        }
    }
}
