import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

/// The conversation list, and the titles of conversations from the client's user cache.
@MainActor
public final class ConversationsFeature {
    /// The conversation list screen.
    public let list: ConversationsListViewModel

    private let directory: any ConversationDirectory
    private let currentUser: UserID
    private let users: UserCache
    private let cached: ConversationCache

    /// Wires the list over `client`'s conversations (through its on-disk conversation cache, so the list is there
    /// offline after a relaunch) and its user cache; `directory` tells a chat opened by id what it is. The list
    /// speaks `strings`.
    public init(client: CourierClient, directory: any ConversationDirectory, strings: CourierStrings = .english) {
        self.directory = directory
        currentUser = client.currentUser
        users = client.users
        cached = client.conversationCache
        list = ConversationsListViewModel(session: client, strings: strings)
    }

    /// A conversation's title: its name, or the other participants' names — from the user cache when it has them.
    /// The conversation is what the directory says of it, else what the device holds (a backend's room that no
    /// payload described: a homeserver's).
    public func title(of id: ConversationID) -> String? {
        guard let conversation = directory.conversation(id) ?? cached.conversation(id) else { return nil }
        // The list's rule (`ConversationsListItem.title`): an empty name and a chat with no one else read alike.
        return ConversationsListItem.title(of: conversation, currentUser: currentUser) { [users, directory] user in
            users.cachedUser(user)?.displayName ?? directory.displayName(of: user)
        }
    }
}
