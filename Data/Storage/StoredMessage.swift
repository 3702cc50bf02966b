/// A message as an outbox record stores it. Dates are seconds since 2001-01-01 UTC (Foundation's reference date),
/// which round-trips a `Date` exactly.
struct StoredMessage: Codable, Equatable {
    var id: String
    var conversationID: String
    var senderID: String
    var text: String
    var timestamp: Double
    var status: String
    var statusUpdatedAt: Double
    var attempts: Int
    var lastError: StoredDeliveryError?
    var mediaURL: String?
    var thumbnailURL: String?

    enum CodingKeys: String, CodingKey {
        case id = "i", conversationID = "c", senderID = "u", text = "t", timestamp = "ts", status = "s"
        case statusUpdatedAt = "su", attempts = "n", lastError = "e", mediaURL = "mu", thumbnailURL = "mt"
    }
}

/// A delivery error as an outbox record stores it: a stable case name, plus the code or reason some cases carry.
struct StoredDeliveryError: Codable, Equatable {
    var code: String
    var number: Int?
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case code = "c", number = "n", reason = "r"
    }
}
