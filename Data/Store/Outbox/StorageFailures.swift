import CourierDomain

/// The outcomes an outbox's store refused to record (a full disk, say), as a value: how many, and the last in words —
/// which message, what happened to it, why the disk refused and where it stays. Tested alone
/// (`StorageFailuresTests`).
struct StorageFailures {
    /// How many refusals were recorded.
    private(set) var count = 0
    /// The last refusal, in words.
    private(set) var last: String?

    /// The store refused to record that `message` `what` (it "was delivered", say) for `error`; it stays `where`.
    mutating func record(_ message: Message, _ what: String, _ error: any Error, staysAs where: String) {
        count += 1
        last =
            "message @\(message.id.rawValue.prefix(8)) \(what), but the disk refused to record it "
            + "(\(error)); it stays \(`where`)"
    }
}
