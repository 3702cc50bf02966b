/// How an outbox call a test started ended: whether it is done, and the error it threw, if any.
@MainActor
final class OutboxTestOutcome {
    var done = false
    var error: (any Error)?
}
