/// A setting change, the payload most write queue tests queue.
public struct WriteQueueTestSetting: Codable, Hashable, Sendable {
    /// The setting's name (`-` for an unkeyed write).
    public var name: String
    /// Its new value.
    public var value: String

    /// Creates a setting change.
    public init(name: String, value: String) { (self.name, self.value) = (name, value) }
}
