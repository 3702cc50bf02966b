import CourierDomain
import CourierFakes
import Foundation
import Testing

/// `DemoData.participants(of:)`, what a one-shot send checks its conversation against without making the demo
/// world's messages, says what `DemoData.make` makes (issue 33).
@Suite("DemoData participants")
struct DemoDataParticipantsTests {
    @Test(
        "every conversation make makes, for several seeds, has the participants read from its id", arguments: [1, 42])
    func agreesWithMake(seed: UInt64) {
        // Given the demo data of a seed
        let data = DemoData.make(seed: seed, now: Date(timeIntervalSince1970: 1_800_000_000))

        // Then each of its conversations' participants are the ones read from the id alone
        #expect(data.conversations.count == DemoData.conversationCount)
        for conversation in data.conversations {
            #expect(DemoData.participants(of: conversation.id) == conversation.participantIDs)
        }
    }

    @Test("an id make does not make has no participants")
    func unknownIDs() {
        for id in ["c0", "c121", "c02", "c", "C1", "c-1", "c1 ", "x1", ""] {
            #expect(DemoData.participants(of: ConversationID(id)) == nil, "\(id)")
        }
    }
}
