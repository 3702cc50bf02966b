import CourierDomain

/// Collects every event a write queue reports, in order.
@MainActor
public final class WriteQueueEventRecorder {
    /// Every event, in order.
    public private(set) var events: [WriteQueueEvent] = []

    /// Creates an empty recorder.
    public init() {}

    /// The events other than count changes: what happened to writes.
    public var outcomes: [WriteQueueEvent] {
        events.filter { if case .pendingCountChanged = $0 { false } else { true } }
    }

    /// Records `event`.
    public func record(_ event: WriteQueueEvent) { events.append(event) }
}
