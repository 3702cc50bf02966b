/// Where a message is in its life (docs/design.md §3).
///
/// Status never moves backwards, except `failed → sending` (Retry), `queued → sending` (Send All, Send Now,
/// automatic policy) and `sending → queued` (a send cut off by going offline, an expired sign-in or the app dying:
/// the message is resent later with the same id).
public enum MessageStatus: String, Codable, Sendable, CaseIterable, Comparable {
    /// Composed offline; durable on the device, waiting to be sent.
    case queued
    /// Handed to the backend; no answer yet.
    case sending
    /// The backend has stored it.
    case sent
    /// The recipient's device has it.
    case delivered
    /// The recipient has read it.
    case read
    /// Sending failed; kept, with Retry and Delete offered.
    case failed

    /// Whether the message still lives in the outbox (not yet stored by the backend).
    public var isPending: Bool { self == .queued || self == .sending || self == .failed }

    /// Whether a message may move from this status to `next`.
    public func canTransition(to next: MessageStatus) -> Bool {
        switch (self, next) {
        case (.queued, .sending), (.queued, .failed), (.failed, .sending), (.sending, .queued):
            return true
        case (.sending, .sent), (.sending, .delivered), (.sending, .read), (.sending, .failed):
            return true
        case (.queued, .sent), (.queued, .delivered), (.queued, .read), (.failed, .sent), (.failed, .delivered),
            (.failed, .read):
            // A batch answer or the feed's echo can confirm a message whose `sending` record was never written (it
            // was cut short), and a copy an earlier attempt stored may have been delivered or read meanwhile: the
            // backend's answer then says so (simulation seed 9877).
            return true
        case (.sent, .delivered), (.sent, .read), (.delivered, .read):
            return true
        default:
            return self == next
        }
    }

    /// The status after a receipt of `kind` covering this message: `sent` moves to `delivered` or `read`,
    /// `delivered` to `read`. Never backwards, and a pending message (not stored by the backend yet) is untouched.
    public func raised(by kind: Receipt.Kind) -> MessageStatus {
        guard !isPending, self < kind.status else { return self }
        return kind.status
    }

    private var rank: Int {
        switch self {
        case .queued: 0
        case .failed: 1
        case .sending: 2
        case .sent: 3
        case .delivered: 4
        case .read: 5
        }
    }

    public static func < (lhs: MessageStatus, rhs: MessageStatus) -> Bool { lhs.rank < rhs.rank }
}
