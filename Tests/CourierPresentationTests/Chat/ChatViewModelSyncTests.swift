import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The open chat hears what others do: arrivals at the bottom, receipts in place, a start-over merged, reads sent.
@MainActor
@Suite struct ChatViewModelSyncTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)
    let sync = FakeLiveSync()

    /// The chat of `c1` over `history`, with the fake sync, once its first page arrived.
    private func open(_ history: [Message] = []) async -> ChatViewModel {
        let model = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox,
            repository: backend(history),
            banner: makeBanner(), clock: clock, sync: sync)
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        return model
    }

    private func fromAna(_ id: String, _ text: String, at seconds: Double = 1) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: "ana", text: text,
            timestamp: clock.now.addingTimeInterval(seconds), status: .sent)
    }

    private func theirs(_ message: Message) -> MessageRow {
        MessageRow(
            id: message.id, text: message.text, status: message.status, senderID: message.senderID, statusLabel: "",
            isOutgoing: false, timeText: "Now", canRetry: false)
    }

    @Test func aMessageThatArrivesShowsAtTheBottomInOneStateAndIsRead() async throws {
        // Given an open chat showing one message of mine
        let mineSent = Message(
            id: "s1", conversationID: "c1", senderID: "me", text: "hey", timestamp: clock.now, status: .sent)
        let model = await open([mineSent])
        let recorder = StateRecorder(model)

        // When Ana's answer arrives
        let answer = fromAna("a1", "hi!")
        sync.announce(.messages([answer]))

        // Then it shows below mine, in one new state, and the chat marks it read
        #expect(
            recorder.states == [
                chatState([mine("s1", "hey", .sent)]),
                chatState([mine("s1", "hey", .sent), theirs(answer)]),
            ])
        #expect(sync.reads.last?.upTo == answer.cursor)
        #expect(sync.reads.last?.conversation == "c1")
    }

    @Test("a message deleted elsewhere while its failed copy showed stays gone when the outbox lets the copy go")
    func aMessageDeletedElsewhereStaysGone() async throws {
        // Given a chat showing the outbox's failed copy over my message as the backend stored it
        let model = await open()
        let stored = Message(
            id: "lost-answer", conversationID: "c1", senderID: "me", text: "hello", timestamp: clock.now,
            status: .sent)
        outbox.announce(.changed(stored))
        var failed = stored
        failed.status = .failed
        failed.lastError = .server(code: 503)
        outbox.announce(.changed(failed))

        // When my other device deletes it, and only then the outbox lets its failed copy go
        sync.announce(.removed(conversation: "c1", ids: [stored.id]))
        outbox.announce(.deleted(stored.id))

        // Then the chat no longer shows it: the stored copy it held went with the row
        #expect(model.state.messages.isEmpty)
    }

    @Test func messagesThatArriveTogetherShowInOneState() async throws {
        // Given an open, empty chat
        let model = await open()
        let recorder = StateRecorder(model)

        // When two of Ana's messages arrive in one update (one batch of the feed)
        let first = fromAna("a1", "are you")
        let second = fromAna("a2", "there?", at: 2)
        sync.announce(.messages([first, second]))

        // Then both show at the bottom in one new state
        #expect(recorder.states == [chatState([]), chatState([theirs(first), theirs(second)])])
    }

    @Test func aReceiptThatRaisesSeveralRowsIsOneState() async throws {
        // Given three sent messages of mine
        let sent = (1...3).map { index in
            Message(
                id: MessageID("s\(index)"), conversationID: "c1", senderID: "me", text: "mine \(index)",
                timestamp: clock.now.addingTimeInterval(Double(index - 4)), status: .sent)
        }
        let model = await open(sent)
        let recorder = StateRecorder(model)

        // When Ana reads all of them
        sync.announce(
            .statuses(
                conversation: "c1", status: .read, upTo: clock.now.cursorAtEnd,
                messages: sent.map { raised($0, to: .read) }))

        // Then the three rows say "Read" in one new state
        let rows = { (status: MessageStatus) in sent.map { mine($0.id, $0.text, status) } }
        #expect(recorder.states == [chatState(rows(.sent)), chatState(rows(.read))])
    }

    @Test func messagesOfAnotherConversationOrAlreadyShownChangeNothing() async throws {
        // Given an open chat showing Ana's message
        let known = fromAna("a1", "hi")
        let model = await open([known])
        let recorder = StateRecorder(model)
        let reads = sync.reads.count

        // When a message of another chat arrives, and Ana's again (a replay)
        var elsewhere = fromAna("b1", "elsewhere")
        elsewhere.conversationID = "c2"
        sync.announce(.messages([elsewhere]))
        sync.announce(.messages([known]))

        // Then no state was emitted and nothing more was marked read
        #expect(recorder.states.count == 1)
        #expect(sync.reads.count == reads)
    }

    @Test func myMessageTheBackendFiledAfterAnotherMovesThereInOneStateAndKeepsItsStatus() async throws {
        // Given an open chat showing my message, read, above Ana's (it stands at its compose stamp: the backend's
        // answer to its send said only that it stored it)
        let mineRead = Message(
            id: "s1", conversationID: "c1", senderID: "me", text: "typed offline", timestamp: clock.now,
            status: .read)
        let ana = fromAna("a1", "meanwhile")
        let model = await open([mineRead, ana])
        let recorder = StateRecorder(model)

        // When the feed's echo says the backend filed mine after Ana's (its own time), as merely sent
        var echo = mineRead
        echo.timestamp = ana.timestamp.addingTimeInterval(1)
        echo.status = .sent
        sync.announce(.messages([echo]))

        // Then mine moves below Ana's in one new state, still read; the same echo again changes nothing
        #expect(
            recorder.states == [
                chatState([mine("s1", "typed offline", .read), theirs(ana)]),
                chatState([theirs(ana), mine("s1", "typed offline", .read)]),
            ])
        sync.announce(.messages([echo]))
        #expect(recorder.states.count == 2)
        withExtendedLifetime(model) {}
    }

    @Test func openingAChatReadsItsNewestMessageFromSomeoneElse() async throws {
        // Given a chat whose newest message is mine, after one of Ana's
        let ana = fromAna("a1", "question", at: -10)
        let answer = Message(
            id: "s1", conversationID: "c1", senderID: "me", text: "answer", timestamp: clock.now, status: .sent)

        // When it opens
        let model = await open([ana, answer])

        // Then Ana's message is marked read, and the chat counts as on screen until it goes
        #expect(sync.reads.map(\.upTo) == [ana.cursor])
        #expect(sync.isWatched("c1"))
        withExtendedLifetime(model) {}
    }

    @Test func receiptsChangeMyRowsInPlaceAndNeverBack() async throws {
        // Given two sent messages of mine, one of Ana's between them, and one of mine still queued
        let first = Message(
            id: "s1", conversationID: "c1", senderID: "me", text: "one", timestamp: clock.now.addingTimeInterval(-3),
            status: .sent)
        let ana = fromAna("a1", "ok", at: -2)
        let second = Message(
            id: "s2", conversationID: "c1", senderID: "me", text: "two", timestamp: clock.now.addingTimeInterval(-1),
            status: .sent)
        let model = await open([first, ana, second])
        network.set(online: false)
        try model.send(text: "queued")
        network.set(online: true)
        let queuedID = try #require(model.state.messages.last?.id)

        // When Ana's device gets the first, then Ana reads everything, then a late delivered receipt comes
        sync.announce(
            .statuses(
                conversation: "c1", status: .delivered, upTo: first.cursor, messages: [raised(first, to: .delivered)]))
        let afterDelivered = model.state.messages.map(\.status)
        sync.announce(
            .statuses(
                conversation: "c1", status: .read, upTo: clock.now.cursorAtEnd,
                messages: [raised(first, to: .read), raised(second, to: .read)]))
        sync.announce(
            .statuses(
                conversation: "c1", status: .delivered, upTo: clock.now.cursorAtEnd,
                messages: [raised(first, to: .delivered), raised(second, to: .delivered)]))

        // Then: first delivered, second still sent; then both read with "Read"; Ana's and the queued row untouched
        #expect(afterDelivered == [.delivered, .sent, .sent, .queued])
        #expect(model.state.messages.map(\.status) == [.read, .sent, .read, .queued])
        #expect(model.state.messages.map(\.statusLabel) == ["Read", "", "Read", "Queued"])
        #expect(model.state.messages.last?.id == queuedID)
    }

    @Test func aStartOverMergesTheNewPageWithoutEverShowingAnEmptyChat() async throws {
        // Given a chat showing two messages
        let old = [fromAna("a1", "one", at: -20), fromAna("a2", "two", at: -10)]
        let model = await open(old)
        let recorder = StateRecorder(model)

        // When the engine starts over with a newest page holding a message missed meanwhile
        let missed = fromAna("a3", "missed")
        let snapshot = FeedSnapshot(
            position: FeedPosition(9), conversations: ConversationPage(conversations: [], hasMore: false),
            chats: ["c1": MessagePage(messages: [old[1], missed], hasMore: true)])
        sync.announce(.reset(snapshot))

        // Then every state showed at least the rows shown before, and the missed one joined at the bottom
        #expect(recorder.states.allSatisfy { $0.messages.count >= 2 })
        #expect(model.state.messages.map(\.id) == ["a1", "a2", "a3"])
        #expect(sync.reads.last?.upTo == missed.cursor)
    }

    @Test func aReleasedChatHearsNothingAndIsNoLongerOnScreen() async throws {
        // Given a chat that opened and was then released
        var model: ChatViewModel? = await open()
        #expect(sync.isWatched("c1"))
        model = nil

        // When a message arrives for it
        sync.announce(.messages([fromAna("a1", "anyone?")]))

        // Then nobody listens any more and the conversation is not on screen
        #expect(model == nil)
        #expect(!sync.hasObservers)
        #expect(!sync.isWatched("c1"))
        #expect(sync.reads.isEmpty)
    }
}

extension Date {
    /// A cursor after every message composed before this instant.
    fileprivate var cursorAtEnd: MessageCursor { MessageCursor(timestamp: self.addingTimeInterval(3_600), id: "~") }
}

/// In the background the chat's timers stop; on return its times are redrawn.
@MainActor
@Suite struct ChatViewModelLifecycleTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test func inTheBackgroundTheRowsTimesStopAndOnReturnTheyAreRedrawn() async throws {
        // Given a chat showing a message sent now ("Now")
        let message = Message(
            id: "s1", conversationID: "c1", senderID: "me", text: "hey", timestamp: clock.now, status: .sent)
        let model = makeChat(repository: backend([message]))
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        let recorder = StateRecorder(model)

        // When the app goes to the background for ten minutes
        model.enterBackground()
        await clock.advance(by: .seconds(600))
        let inBackground = recorder.states.count

        // Then nothing was redrawn meanwhile, and the return redraws "10m ago" at once
        #expect(inBackground == 1)
        #expect(clock.sleeperCount == 0)
        model.enterForeground()
        #expect(model.state.messages.first?.timeText == "10m ago")
        await clock.idle()
        #expect(clock.sleeperCount == 1)
    }
}

/// `message` as the sync writes it once a receipt raised it to `status`.
private func raised(_ message: Message, to status: MessageStatus) -> Message {
    var raised = message
    raised.status = status
    return raised
}
