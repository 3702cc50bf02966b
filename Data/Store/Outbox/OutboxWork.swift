import CourierDomain

/// The sends an outbox has under way, as a value: the outbox holds one. One lane at a time per conversation, one
/// automatic pass at a time, the sends a caller awaits (Send All, a hand-sent message), and the messages sent by hand
/// that their lane must send alone, once, through the manual repository. Tested alone (`OutboxWorkTests`).
struct OutboxWork {
    /// Each conversation's lane while it runs.
    var lanes: [ConversationID: TrackedTask<Void>] = [:]
    /// The automatic policy's pass while it runs.
    var automaticPass: TrackedTask<Void>?
    /// How many sends a caller awaits run now.
    var operations = 0
    /// Messages sent by hand that their lane must send alone, through the manual repository.
    var manualAttempts: Set<MessageID> = []
    /// How many times sign-in was renewed: a request sent before the latest renewal and refused for sign-in was
    /// refused on the old sign-in, which says nothing about the new one.
    var signInRenewals = 0

    /// Whether anything runs: a lane, the pass or an awaited send.
    var isBusy: Bool { !lanes.isEmpty || automaticPass != nil || operations > 0 }

    /// The lanes and the pass that run now, for a caller that waits for them all.
    var running: [TrackedWork] { lanes.values.map(\.work) + (automaticPass.map { [$0.work] } ?? []) }

    /// A lane's next request over its `sending` messages, in compose order: a hand-sent message first goes alone,
    /// once (it is hand-sent no more); otherwise the messages before the first hand-sent one go together, with the
    /// retry budget. `manual` says which.
    mutating func nextBatch(of sending: [Message]) -> (messages: [Message], manual: Bool) {
        guard let first = sending.first else { return ([], false) }
        if manualAttempts.remove(first.id) != nil { return ([first], true) }
        return (Array(sending.prefix { !manualAttempts.contains($0.id) }), false)
    }
}
