/// A value a task sets when it is done, read by `ManualClock.run(until:)`.
@MainActor
public final class WriteQueueTestBox<Value> {
    /// The value, once set.
    public var value: Value?

    /// Creates an empty box.
    public init() {}
}
