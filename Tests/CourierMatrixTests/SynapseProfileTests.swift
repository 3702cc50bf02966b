import Testing

/// Presence and display names as another user reads them: one user per request, no batch.
@Suite struct SynapseProfileTests {
    @Test func anotherUserReadsMyPresenceAndDisplayName() async throws {
        // Given Ben online under a display name of his choice
        let (me, ben, _) = try await SynapseServer.shared().conversation()
        try await ben.setPresence("online")
        try await ben.setDisplayName("Ben Walker")

        // When I look him up
        let presence = try await me.request("GET", ["presence", ben.userID, "status"])
        let profile = try await me.request("GET", ["profile", ben.userID])

        // Then I see him online, active just now, under that name
        #expect(presence["presence"] as? String == "online")
        #expect(presence["currently_active"] as? Bool == true)
        #expect(profile["displayname"] as? String == "Ben Walker")
    }
}
