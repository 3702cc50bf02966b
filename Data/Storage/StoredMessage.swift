/// A message as a record stores it (outbox, message cache, conversation cache). Dates are seconds since 2001-01-01 UTC
/// (Foundation's reference date), which round-trips a `Date` exactly; the status is a stable one-byte code.
struct StoredMessage: Equatable {
    var id: String
    var conversationID: String
    var senderID: String
    var text: String
    var timestamp: Double
    var status: UInt8
    var statusUpdatedAt: Double
    var attempts: Int
    var lastError: StoredDeliveryError?
    var mediaURL: String?
    var thumbnailURL: String?
    /// The per-conversation compose sequence; nil in a version-1 record, which has none (replay assigns one).
    var sequence: Int?
}
