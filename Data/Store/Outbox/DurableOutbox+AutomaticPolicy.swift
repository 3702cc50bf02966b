import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DurableOutbox {
    /// Sends cut off when the app died were already on their way: they go out at launch, whatever the policy, when
    /// the device is online; offline they wait in the queue like any other.
    package func resumeInterruptedSends() {
        guard connectivity.isOnline else { return }
        var conversations: [ConversationID] = []
        for id in store.requeuedAtOpen {
            guard let message = store.message(id), message.status == .queued, markSending(message) != nil else {
                continue
            }
            if !conversations.contains(message.conversationID) { conversations.append(message.conversationID) }
        }
        for conversation in conversations { startLane(conversation) }
    }

    // MARK: - The automatic policy

    /// One pass over the queue at a time: flicker while a pass runs starts no second one.
    package func startAutomaticPass(pauseFirst: Bool = false) {
        guard work.automaticPass == nil, !isStopped, connectivity.isOnline, !isPausedForSignIn, policy == .automatic
        else {
            return
        }
        guard store.all().contains(where: isWaitingForAutomaticRound) else { return }
        // A pass sends: it needs the lease (taking it may start a pass of its own).
        guard takeLeaseIfFree(), work.automaticPass == nil else { return }
        work.automaticPass = clock.task { [weak self] in
            await self?.runAutomaticPass(firstRound: pauseFirst ? 1 : 0)
        }
    }

    package func isWaitingForAutomaticRound(_ message: Message) -> Bool {
        message.status == .sending || (message.status == .queued && message.attempts < limits.maxAutomaticRounds)
    }

    package func runAutomaticPass(firstRound: Int) async {
        defer {
            work.automaticPass = nil
            releaseLeaseIfIdle()
        }
        var round = firstRound
        while !Task.isCancelled, connectivity.isOnline, !isPausedForSignIn, round <= limits.maxAutomaticRounds + 1 {
            let waiting = store.all().filter(isWaitingForAutomaticRound)
            guard !waiting.isEmpty else { return }
            if round > 0 {
                // A later round: give a struggling backend a moment; going offline ends the pass.
                do { try await clock.sleep(for: limits.roundPause) } catch { return }
                guard connectivity.isOnline, !isPausedForSignIn else { return }
            }
            var conversations: [ConversationID] = []
            for message in waiting {
                if message.status == .queued, markSending(message) == nil { continue }
                if !conversations.contains(message.conversationID) { conversations.append(message.conversationID) }
            }
            for conversation in conversations { startLane(conversation) }
            for conversation in conversations { await work.lanes[conversation]?.value }
            round += 1
        }
    }
}
