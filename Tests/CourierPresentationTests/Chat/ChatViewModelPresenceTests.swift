import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The chat's header shows the other person's status, never older than 30 s while the chat is shown in the
/// foreground; the background asks nothing, the return asks at once.
@MainActor
@Suite struct ChatViewModelPresenceTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test func theStatusShowsAtOnceFollowsWithin30SecondsAndStopsInTheBackground() async {
        // Given Ana online, and her chat shown
        let board = FakeUserDirectory(presence: [Presence(userID: "ana", isOnline: true)])
        let model = makeChat(repository: backend(latency: .zero))
        model.showPresence(of: "ana", from: board)
        model.start()
        await clock.idle()
        #expect(model.state.presence == "Online")

        // When she goes offline, the status follows at the next 30 s mark, then reads her last-seen time
        let left = clock.now.addingTimeInterval(10)
        board.setPresence(Presence(userID: "ana", isOnline: false, lastSeen: left))
        await clock.advance(by: .seconds(29))
        #expect(model.state.presence == "Online")
        await clock.advance(by: .seconds(1))
        #expect(model.state.presence == "Last seen just now")
        await clock.advance(by: .seconds(300))
        #expect(model.state.presence == "Last seen 5m ago")
        let askedInForeground = board.presenceLookups.count

        // When the app spends an hour in the background, nothing is asked; the return asks at once
        model.enterBackground()
        await clock.advance(by: .seconds(3_600))
        #expect(board.presenceLookups.count == askedInForeground)
        model.enterForeground()
        await clock.idle()
        #expect(board.presenceLookups.count == askedInForeground + 1)
        #expect(model.state.presence == "Last seen 1h ago")
    }

    @Test func aChatShownInTheBackgroundAsksNothingUntilTheAppIsBack() async {
        // Given a chat made while the app is in the background
        let board = FakeUserDirectory(presence: [Presence(userID: "ana", isOnline: true)])
        let model = makeChat(repository: backend(latency: .zero))
        model.enterBackground()
        model.showPresence(of: "ana", from: board)
        model.start()
        await clock.advance(by: .seconds(120))

        // Then no status was asked; the return asks at once
        #expect(board.presenceLookups.count == 0 && model.state.presence == nil)
        model.enterForeground()
        await clock.idle()
        #expect(board.presenceLookups.count == 1 && model.state.presence == "Online")
    }

    @Test func theStatusTextsAreTheStorysWords() {
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let formatter = RelativeTimeFormatter()
        func text(_ presence: Presence) -> String {
            ChatViewModel.presenceText(presence, now: now, formatter: formatter)
        }
        #expect(text(Presence(userID: "a", isOnline: true)) == "Online")
        #expect(text(Presence(userID: "a", isOnline: false)) == "Offline")
        let justNow = Presence(userID: "a", isOnline: false, lastSeen: now.addingTimeInterval(-10))
        let earlier = Presence(userID: "a", isOnline: false, lastSeen: now.addingTimeInterval(-3 * 3_600))
        #expect(text(justNow) == "Last seen just now")
        #expect(text(earlier) == "Last seen 3h ago")
    }

    @Test func withoutAStatusAskedForTheHeaderShowsNone() async {
        let model = await openChat()
        #expect(model.state.presence == nil)
    }
}
