import CourierDomain
import Testing

@testable import CourierStore

/// How an outbox stands with a shared outbox's lease, alone: when it lets the lease go, when it takes it, and what
/// waited for it.
@Suite struct LeaseStateTests {
    @Test func anOutboxInTheForegroundKeepsTheLeaseAndInTheBackgroundLetsItGo() {
        // Given an outbox holding the lease, in the foreground
        var state = LeaseState()
        #expect(!state.letsGoWhenIdle)

        // When the app goes to the background, it lets it go once idle
        state.wantsLease = false
        #expect(state.letsGoWhenIdle)

        // Once let go, there is nothing more to let go
        state.isSuspended = true
        #expect(!state.letsGoWhenIdle)
    }

    @Test func anOutboxWithoutTheLeaseTakesItBackForTheForegroundOrForASend() {
        var state = LeaseState()
        state.isSuspended = true

        // In the foreground it takes it back at any chance
        #expect(state.takes(toSend: false) && state.takes(toSend: true))

        // In the background only for a send it has to make
        state.wantsLease = false
        #expect(!state.takes(toSend: false) && state.takes(toSend: true))

        // Holding it, it takes nothing
        state.isSuspended = false
        #expect(!state.takes(toSend: true))
    }

    @Test func theMessagesCutOffAreTakenOnce() {
        var state = LeaseState()
        state.cutOff = ["m1", "m2"]

        let first = state.takeCutOff()
        let second = state.takeCutOff()

        #expect(first == ["m1", "m2"])
        #expect(second.isEmpty)
    }
}
