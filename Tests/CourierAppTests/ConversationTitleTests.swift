import CourierDomain
import CourierPresentation
import Foundation
import Testing

@testable import CourierApp

/// One title rule for a conversation: the list and the App layer (a chat's header, the Offline Queue's rows) agree,
/// for an empty name and for a chat with no one else in it too.
@Suite("Conversation titles", .removesTemporaryDirectories)
@MainActor
struct ConversationTitleTests {
    /// A directory that knows three conversations made for the rule's edges.
    final class Edges: ConversationDirectory {
        let rows: [ConversationID: Conversation] = [
            "named": Conversation(id: "named", participantIDs: ["me", "ben"], name: "Friday", lastActivity: .now),
            "empty": Conversation(id: "empty", participantIDs: ["me", "ben", "ana"], name: "", lastActivity: .now),
            "alone": Conversation(id: "alone", participantIDs: ["me"], lastActivity: .now),
        ]
        func conversation(_ id: ConversationID) -> Conversation? { rows[id] }
        func displayName(of user: UserID) -> String? { ["me": "Me", "ben": "Ben", "ana": "Ana"][user] }
    }

    @Test("the App layer titles a conversation as the list does")
    func oneRule() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let directory = Edges()
        let feature = ConversationsFeature(client: harness.driver.app.client, directory: directory)
        let names: (UserID) -> String? = { directory.displayName(of: $0) }

        for id in ["named", "empty", "alone"] as [ConversationID] {
            let conversation = try #require(directory.conversation(id))
            #expect(
                feature.title(of: id)
                    == ConversationsListItem.title(of: conversation, currentUser: "me", name: names))
        }
        #expect(feature.title(of: "named") == "Friday")
        #expect(feature.title(of: "empty") == "Ben, Ana")
        #expect(feature.title(of: "alone") == "Me")
    }
}
