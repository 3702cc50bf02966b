import CourierDomain
import CourierOneShot
import CourierPresentation

extension Driver {
    /// `conversations delete ID`: Delete on a row of the list — its confirmation opens (printed as `alert: …`). A
    /// row the list does not show yet is looked for as a person would: the list loads, page by page, until it
    /// shows it or has no more.
    func deleteConversation(_ id: String) async throws -> Render {
        guard !id.isEmpty, !id.contains(" ") else { throw DriverError.badArguments("usage: conversations delete ID") }
        let list = app.conversations.list
        let conversation = ConversationID(id)
        func shown() -> Bool { list.state.items.contains { $0.id == conversation } }
        if !shown(), list.state.items.isEmpty {
            list.load()
            await waitForWork()
        }
        while !shown(), list.state.hasMore, !list.state.isLoading {
            list.loadMore()
            await waitForWork()
        }
        do {
            try list.deleteConversation(conversation)
        } catch {
            throw DriverError.failed("\(error)")
        }
        return { Output(lines: []) }
    }

    /// `choose ACTION` while the list's confirmation shows: Delete or Cancel. A deleted conversation's open chat
    /// closes with it.
    func chooseListAction(_ label: String) throws -> Render {
        let list = app.conversations.list
        guard let alert = list.state.alert else { throw DriverError.failed("no alert is open") }
        let discarded = app.client.outbox.pending.filter {
            $0.conversationID == alert.conversationID && ($0.status == .queued || $0.status == .failed)
        }.count
        do { try list.chooseAlertAction(label) } catch { throw DriverError.failed("\(error)") }
        // The button is matched by what it does; its words are the alert's own.
        let index = alert.actions.firstIndex { $0.lowercased() == label.lowercased() }
        let action = index.map { alert.actions[$0] } ?? label
        let deleted =
            index.map { alert.buttons[$0] } == .delete
            && !list.state.items.contains { $0.id == alert.conversationID }
        if deleted, app.chat?.state.conversationID == alert.conversationID { app.closeChat() }
        let id = alert.conversationID.rawValue
        return {
            guard deleted else { return Output(lines: ["chose: \(action)"] + (list.state.error.map { [$0] } ?? [])) }
            return Output(lines: ["chose: \(action)", "deleted conversation \(id) (\(discarded) unsent message(s))"])
        }
    }
}
