#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Message {
    /// The message as a backend's answer to a send that returned without throwing leaves it: such an answer means
    /// the backend stored it, so its status is at least `sent` whatever status the backend echoed (a backend that
    /// returns the message as given echoes `queued` or `sending`). An echoed later status (`delivered`, `read`) is
    /// kept: it only upgrades the message.
    public func acknowledged(at date: Date) -> Message {
        guard status < .sent else { return self }
        var copy = self
        copy.status = .sent
        copy.statusUpdatedAt = max(date, statusUpdatedAt)
        return copy
    }
}
