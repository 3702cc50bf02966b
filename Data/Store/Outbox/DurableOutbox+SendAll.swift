import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DurableOutbox {
    // MARK: - Send All, durably

    /// Records a Send All in the store before anything is tried (`OutboxStore.requestSendAll`): every queued and
    /// failed message held is `sendRequested` in one synced change, so a relaunch, an outage or an expired sign-in
    /// in between forgets nothing. A store that refuses keeps the request in this process only, and says so in the
    /// log.
    package func recordSendAllRequest() {
        var asked: [Message] = []
        do {
            asked = try store.requestSendAll()
        } catch {
            logger.log(.warning, "outbox: Send All could not be recorded, it holds until the app closes: \(error)")
            sendAllRequest.holdInMemory(
                store.all().lazy.filter { $0.status == .queued || $0.status == .failed }.map(\.id))
        }
        noteSendAllRequest()
        // Each message asked for changed (a screen may say it will go): observers hear it, after the flag is read.
        for message in asked { observers.notify(.changed(message)) }
    }

    /// Whether `message` waits for a Send All to carry it out.
    package func isRequested(_ message: Message) -> Bool {
        sendAllRequest.covers(message)
    }

    /// Reads whether a Send All still waits for messages (at launch, after a request, after a lane ends while one
    /// waits): the store's count, O(1), plus the requests held in memory alone when the store refused one.
    package func noteSendAllRequest() {
        let store = store
        sendAllRequest.note(recorded: store.requestedCount) { store.message($0)?.status }
    }

    /// Sends the queued messages a Send All asked for and that could not go then: at launch, on reconnect, and when
    /// sign-in is renewed, whatever the policy — the user already said to send them.
    package func resumeRequestedSends() {
        guard sendAllRequested, !isStopped, connectivity.isOnline, !isPausedForSignIn, takeLeaseIfFree() else {
            return
        }
        startSending(store.all().filter { $0.status == .queued && isRequested($0) })
    }

    /// Marks each of `messages` (queued or failed) `sending` and starts the lanes of their conversations; returns
    /// those conversations, in the order first met.
    @discardableResult
    package func startSending(_ messages: [Message]) -> [ConversationID] {
        var conversations: [ConversationID] = []
        for message in messages where markSending(message) != nil {
            if !conversations.contains(message.conversationID) { conversations.append(message.conversationID) }
        }
        for conversation in conversations { startLane(conversation) }
        return conversations
    }
}
