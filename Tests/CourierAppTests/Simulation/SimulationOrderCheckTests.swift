import CourierDomain
import Foundation
import Testing

@testable import CourierApp

/// The simulation's order check: the user's own messages must stand at the backend in the order they were composed.
@Suite("Simulation: the compose-order check")
struct SimulationOrderCheckTests {
    private let start = Date(timeIntervalSince1970: 1_767_258_000)

    /// Own messages `own0`… composed in that order, one second apart, with a message from someone else between.
    private func conversation(ownCount: Int) -> (messages: [Message], composeOrder: [MessageID: Int]) {
        var messages: [Message] = []
        var composeOrder: [MessageID: Int] = [:]
        for index in 0..<ownCount {
            let id = MessageID("own\(index)")
            composeOrder[id] = index
            messages.append(
                Message(
                    id: id, conversationID: "c1", senderID: "me", text: "mine \(index)",
                    timestamp: start.addingTimeInterval(Double(2 * index)), status: .sent))
            messages.append(
                Message(
                    id: MessageID("other\(index)"), conversationID: "c1", senderID: "ana", text: "theirs \(index)",
                    timestamp: start.addingTimeInterval(Double(2 * index + 1)), status: .sent))
        }
        return (messages, composeOrder)
    }

    @Test("a conversation in compose order, with other people's messages between, passes")
    func composeOrderPasses() {
        let (messages, composeOrder) = conversation(ownCount: 4)
        #expect(SimulationInvariants.orderViolations(in: messages[...], of: "c1", composeOrder: composeOrder).isEmpty)
    }

    @Test("a batch of the user's messages that reached the backend in reverse is caught")
    func reversedBatchIsCaught() {
        // Given three own messages that arrived newest first after the first two of the conversation
        let (messages, composeOrder) = conversation(ownCount: 1)
        let batch = (1...3).map { index in
            Message(
                id: MessageID("batch\(index)"), conversationID: "c1", senderID: "me", text: "queued \(index)",
                timestamp: start.addingTimeInterval(Double(10 + index)), status: .sent)
        }
        var order = composeOrder
        for (offset, message) in batch.enumerated() { order[message.id] = 1 + offset }
        let arrived = messages + batch.reversed()

        // When the checker looks at the conversation as the backend holds it
        let violations = SimulationInvariants.orderViolations(in: arrived[...], of: "c1", composeOrder: order)

        // Then it names the messages that stand ahead of ones composed before them
        #expect(violations.contains("batch2 reached c1 ahead of a message composed before it"))
        #expect(violations.contains("batch1 reached c1 ahead of a message composed before it"))
    }

    @Test("a message stored twice is caught")
    func duplicateIsCaught() {
        let (messages, composeOrder) = conversation(ownCount: 2)
        let twice = messages + [messages[2]]
        let violations = SimulationInvariants.orderViolations(in: twice[...], of: "c1", composeOrder: composeOrder)
        #expect(violations.contains("own1 is stored twice in c1"))
    }
}
