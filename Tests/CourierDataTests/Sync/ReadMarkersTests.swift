import CourierDomain
import Foundation
import Testing

@testable import CourierData

/// The sync engine's read markers, alone: how far the user read in each conversation on this device.
@Suite struct ReadMarkersTests {
    private func cursor(_ id: String, at seconds: Double) -> MessageCursor {
        MessageCursor(timestamp: Date(timeIntervalSinceReferenceDate: seconds), id: MessageID(id))
    }

    private func receipt(_ kind: Receipt.Kind, in conversation: ConversationID, upTo: MessageCursor) -> Receipt {
        Receipt(conversationID: conversation, userID: "me", kind: kind, upTo: upTo)
    }

    @Test func aMarkerOnlyMovesForward() {
        // Given a marker at m2
        var markers = ReadMarkers()
        let advanced = markers.advance("c1", to: cursor("m2", at: 20))

        // When the user is said to have read up to an earlier message, and then up to the same one
        let backwards = markers.advance("c1", to: cursor("m1", at: 10))
        let again = markers.advance("c1", to: cursor("m2", at: 20))

        // Then only the first moved it, and it stays at m2
        #expect(advanced && !backwards && !again)
        #expect(markers["c1"] == cursor("m2", at: 20))

        // When a later message is read
        let later = markers.advance("c1", to: cursor("m3", at: 30))

        // Then the marker moves on, and the other conversations have none
        #expect(later)
        #expect(markers["c1"] == cursor("m3", at: 30))
        #expect(markers["c2"] == nil)
    }

    @Test func aMarkerCoversWhatCameUpToItInItsConversationOnly() {
        // Given a marker at m2 in c1
        var markers = ReadMarkers()
        markers.advance("c1", to: cursor("m2", at: 20))

        // Then it covers m2 and what came before, not what came after, nor anything in c2
        #expect(markers.covers(cursor("m1", at: 10), in: "c1"))
        #expect(markers.covers(cursor("m2", at: 20), in: "c1"))
        #expect(!markers.covers(cursor("m3", at: 30), in: "c1"))
        #expect(!markers.covers(cursor("m1", at: 10), in: "c2"))
    }

    @Test func theQueuedReadReceiptsOfAnEarlierLaunchAreTheFirstMarkers() {
        // Given receipts an earlier launch left queued: two reads of c1 out of order, a delivered one of c2
        let queued = [
            receipt(.read, in: "c1", upTo: cursor("m3", at: 30)),
            receipt(.read, in: "c1", upTo: cursor("m1", at: 10)),
            receipt(.delivered, in: "c2", upTo: cursor("m9", at: 90)),
        ]

        // When the markers are made from them
        let markers = ReadMarkers(queued: queued)

        // Then c1 is read up to the newest of its reads, and a delivered receipt marks nothing read
        #expect(markers["c1"] == cursor("m3", at: 30))
        #expect(markers["c2"] == nil)
    }
}
