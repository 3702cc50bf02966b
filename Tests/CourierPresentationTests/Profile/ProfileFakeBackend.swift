import CourierDomain

/// The backend's users: answers with the server's profile of the user, or fails offline when it has none.
struct ProfileFakeBackend: UserRepository {
    var server: User?

    func users(_ ids: [UserID]) async throws -> [User] {
        guard let server else { throw DeliveryError.offline }
        return ids.contains(server.id) ? [server] : []
    }

    func presence(_ ids: [UserID]) async throws -> [Presence] { [] }
}
