/// One change to the outbox, as stored in one record of `outbox.log` (a JSON object; docs/storage-format.md).
///
/// Storage types are separate from the domain's `Message` so the domain can evolve without silently changing the
/// bytes on disk; keys are short because every open decodes every record.
struct OutboxRecord: Codable, Equatable {
    /// The record layout this code writes; a record with a higher `version` is refused, never skipped.
    static let currentVersion = 1

    /// What the record does.
    enum Kind: String, Codable {
        /// Stores a whole message (enqueue, and every live message after a compaction).
        case put
        /// Changes a message's status, status time, attempts and last error.
        case status
        /// Changes a message's text.
        case text
        /// Removes a message.
        case remove
        /// Removes every message.
        case clear
    }

    var version: Int
    var kind: Kind
    /// The message concerned (`status`, `text`, `remove`).
    var id: String?
    /// The whole message (`put`).
    var message: StoredMessage?
    /// The new status (`status`).
    var status: String?
    /// When the status changed (`status`), seconds since 2001-01-01 UTC.
    var at: Double?
    /// The new attempt count (`status`); absent keeps the old one.
    var attempts: Int?
    /// The new last error (`status`); absent clears it.
    var error: StoredDeliveryError?
    /// The new text (`text`).
    var text: String?

    init(
        kind: Kind, id: String? = nil, message: StoredMessage? = nil, status: String? = nil, at: Double? = nil,
        attempts: Int? = nil, error: StoredDeliveryError? = nil, text: String? = nil
    ) {
        version = Self.currentVersion
        self.kind = kind
        self.id = id
        self.message = message
        self.status = status
        self.at = at
        self.attempts = attempts
        self.error = error
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case version = "v", kind = "k", id = "i", message = "m", status = "s", at, attempts = "n", error = "e"
        case text = "t"
    }
}
