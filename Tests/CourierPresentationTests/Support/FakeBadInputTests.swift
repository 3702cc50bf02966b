import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The screens' fake backends meet bad input with a typed error, as the real one does, instead of trapping: a
/// view model bug that asks for a page of nothing fails its own test and the rest of the suite still runs.
@Suite("Fakes: bad input")
struct FakeBadInputTests {
    @Test("the chat fake refuses a page limit of zero or below with a validation error")
    func chatFakeRefusesBadLimits() async {
        let repository = ChatFakeRepository(clock: ManualClock(), latency: .zero)
        for limit in [0, -1, Int.min] {
            await #expect(throws: DeliveryError.validation(reason: "a page holds at least one message")) {
                try await repository.messages(in: "c1", before: nil, limit: limit)
            }
        }
        #expect(repository.pageRequests.isEmpty, "a refused request is not served")
    }

    @Test("the conversation list fake refuses a page limit of zero or below with a validation error")
    func conversationsFakeRefusesBadLimits() async {
        let repository = ConversationsListFakeRepository([], clock: ManualClock(), latency: .zero)
        for limit in [0, -1, Int.min] {
            await #expect(throws: DeliveryError.validation(reason: "a page holds at least one conversation")) {
                try await repository.conversations(of: "me", after: nil, limit: limit)
            }
        }
        #expect(repository.requestCount == 0, "a refused request is not served")
    }
}
