import CourierData
import CourierDomain
import CourierPresentation
import Foundation

/// The conversation list and the user cache behind its names.
@MainActor
public final class ConversationsFeature {
    /// Profiles (5 min) and presence (30 s), at most 100 users.
    public let users: UserCache
    /// The conversation list screen.
    public let list: ConversationsListViewModel

    private let world: World
    private let currentUser: UserID

    /// Wires the list over `client`'s conversations (through its on-disk conversation cache, so the list is there
    /// offline after a relaunch) and its user cache.
    public init(world: World, client: CourierClient, currentUser: UserID) {
        self.world = world
        self.currentUser = currentUser
        users = client.users
        list = ConversationsListViewModel(
            currentUser: currentUser, conversations: client.conversations, users: users, clock: world.clock)
    }

    /// A conversation's title: its name, or the other participants' names (from the cache when it has them).
    public func title(of id: ConversationID) -> String? {
        guard let conversation = world.backend.conversation(id) else { return nil }
        if let name = conversation.name { return name }
        let names = conversation.participantIDs.filter { $0 != currentUser }.map { user in
            users.cachedUser(user)?.displayName ?? world.backend.user(user)?.displayName ?? user.rawValue
        }
        return names.joined(separator: ", ")
    }
}
