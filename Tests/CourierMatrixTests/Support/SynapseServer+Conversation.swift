extension SynapseServer {
    /// Two new users, `me` and `ben`, in a private direct room of their own that `me` created and Ben joined.
    func conversation() async throws -> (me: MatrixPeer, ben: MatrixPeer, room: String) {
        let me = try await peer("me")
        let ben = try await peer("ben")
        let room = try await me.createRoom(name: "me and ben", invite: [ben.userID])
        try await ben.join(room)
        return (me, ben, room)
    }
}
