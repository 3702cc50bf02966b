import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// An app replaces part of the strings table (here, some French): the states carry its words, the rest stays
/// English, and the buttons still work by the translated labels.
@MainActor
@Suite struct TranslatedStringsTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    /// English, with the toast, the banner's button, the failed-message alert and the times in French.
    static let french: CourierStrings = {
        var strings = CourierStrings.english
        strings.reconnectToast = { count in
            count == 1
                ? "Connecté. Envoyer 1 message en attente ?" : "Connecté. Envoyer \(count) messages en attente ?"
        }
        strings.toastYes = "Oui"
        strings.toastReviewFirst = "Vérifier d'abord"
        strings.sendAll = "Tout envoyer"
        strings.failedAlertTitle = "Échec de l'envoi"
        strings.retry = "Réessayer"
        strings.delete = "Supprimer"
        strings.cancel = "Annuler"
        strings.relativeTime = { time in time == .now ? "maintenant" : "plus tôt" }
        strings.lastSeen = { time in time == .now ? "Vu à l'instant" : "Vu plus tôt" }
        return strings
    }()

    @Test func theToastAndTheBannerButtonSpeakTheReplacedWords() {
        // Given two messages queued offline, and a banner made with the French table
        outbox.seed("un")
        outbox.seed("deux")
        let model = ConnectivityBannerViewModel(
            connectivity: network, outbox: outbox, clock: clock, strings: Self.french)
        let recorder = StateRecorder(model)

        // When the device comes back online
        network.set(online: true)

        // Then the banner offered "Tout envoyer" (its text not replaced, so English), and the toast asks in French
        let offline = ConnectivityBannerViewModel.Banner(
            visible: true, text: "You're offline. 2 messages queued.", queuedCount: 2, showsSendAll: true,
            sendAllLabel: "Tout envoyer")
        let toast = ConnectivityBannerViewModel.Toast(
            visible: true, text: "Connecté. Envoyer 2 messages en attente ?", queuedCount: 2, yesLabel: "Oui",
            reviewFirstLabel: "Vérifier d'abord")
        let hidden = ConnectivityBannerViewModel.Toast(
            visible: false, text: "", queuedCount: 0, yesLabel: "Oui", reviewFirstLabel: "Vérifier d'abord")
        let online = ConnectivityBannerViewModel.Banner(
            visible: true, text: "2 messages waiting to send.", queuedCount: 2, showsSendAll: true,
            sendAllLabel: "Tout envoyer")
        #expect(
            recorder.states == [
                .init(isOnline: false, banner: offline, toast: hidden, connected: false),
                .init(isOnline: true, banner: online, toast: toast, connected: true),
            ])
    }

    @Test func theFailedAlertIsInFrenchAndItsFrenchButtonDeletes() async throws {
        // Given a failed message in a chat made with the French table
        let failed = outbox.seed("raté", status: .failed, lastError: .server(code: 500))
        let model = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox,
            repository: backend(), banner: makeBanner(), clock: clock,
            strings: Self.french)
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        #expect(model.state.messages.map(\.timeText) == ["maintenant"])

        // When the user taps it
        try model.tapMessage(messageID: failed.id)

        // Then the alert speaks French, English where the table was not replaced
        let alert = try #require(model.state.alert)
        #expect(alert.title == "Échec de l'envoi")
        #expect(alert.message == "This message failed to send. Would you like to retry or delete it?")
        #expect(alert.actions == ["Réessayer", "Supprimer", "Annuler"])
        #expect(alert.buttons == [.retry, .delete, .cancel])

        // And the English label is not one of its buttons, while the French one deletes, in any case
        #expect(throws: PresentationError.unknownAction("Delete", available: alert.actions)) {
            try model.chooseAlertAction("Delete")
        }
        try model.chooseAlertAction("SUPPRIMER")
        #expect(model.state.messages.isEmpty)
        #expect(model.state.alert == nil)
    }

    @Test func lastSeenAsksTheRoundedTimeNotTheText() {
        // Given a table whose "now" is not "Now"
        let formatter = RelativeTimeFormatter(strings: Self.french)
        let now = Date(timeIntervalSince1970: 1_000_000)

        // Then "just now" and "earlier" are told apart by the time, in the table's words
        let justNow = Presence(userID: "ana", isOnline: false, lastSeen: now.addingTimeInterval(-5))
        let earlier = Presence(userID: "ana", isOnline: false, lastSeen: now.addingTimeInterval(-600))
        #expect(
            ChatViewModel.presenceText(justNow, now: now, formatter: formatter, strings: Self.french)
                == "Vu à l'instant")
        #expect(
            ChatViewModel.presenceText(earlier, now: now, formatter: formatter, strings: Self.french) == "Vu plus tôt")
        #expect(formatter.relativeTime(for: now.addingTimeInterval(-600), relativeTo: now) == .minutes(10))
        // And English keeps its words
        #expect(
            ChatViewModel.presenceText(justNow, now: now, formatter: RelativeTimeFormatter())
                == "Last seen just now")
    }
}

@Suite struct StatusMarkTests {
    @Test func theMarksAreStory24sWordsAndATableCanReplaceThem() {
        #expect(
            MessageStatus.allCases.map { MessageRow.statusMark(for: $0) } == [
                "Queued", "Sending...", "✓ Sent", "✓✓ Delivered", "✓✓ Read", "⚠️ Failed - Tap to retry",
            ])
        var strings = CourierStrings.english
        strings.statusMark = { $0 == .read ? "✓✓ Lu" : "·" }
        #expect(MessageRow.statusMark(for: .read, strings: strings) == "✓✓ Lu")
    }
}
