import CourierDomain

/// Whether a Send All still waits for messages that could not go yet, as a value: the outbox holds one. The store
/// records a request durably (`Message.awaitsSendAll`, counted by the store); when it refuses, the messages asked
/// for are held here for this process alone, until they go or fail. Tested alone (`SendAllRequestTests`).
struct SendAllRequest {
    /// Whether a Send All waits for messages that could not go yet.
    private(set) var isWaiting = false
    /// Messages a Send All asked for whose request the store refused to record.
    private var inMemory: Set<MessageID> = []

    /// The store refused to record a Send All over `ids`: they are held here instead.
    mutating func holdInMemory(_ ids: some Sequence<MessageID>) { inMemory.formUnion(ids) }

    /// Whether `message` waits for a Send All to carry it out: recorded so, or held here and not failed since.
    func covers(_ message: Message) -> Bool {
        message.awaitsSendAll || (message.status != .failed && inMemory.contains(message.id))
    }

    /// Reads again whether a Send All waits: the store holds `recorded` requests, and a message held here still waits
    /// while `status` says it is held and not failed.
    mutating func note(recorded: Int, status: (MessageID) -> MessageStatus?) {
        inMemory = inMemory.filter { status($0).map { $0 != .failed } ?? false }
        isWaiting = recorded > 0 || !inMemory.isEmpty
    }
}
