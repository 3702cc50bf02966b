import CourierDomain
import Foundation

extension ConversationsListViewModel {
    // MARK: - Rows

    /// Adds the rows of a page (as the sync answered them), in its order; a row already shown keeps its place. A row
    /// more recently active than the last one shown (the sync heard of a message in it, or one was composed here)
    /// takes its place by activity.
    func merge(_ page: [Conversation]) {
        let shown = Set(conversations.map(\.id))
        for row in page where !shown.contains(row.id) && !local.deleted.contains(row.id) {
            rows[row.id] = row
            let conversation = shownRow(row)
            if let last = conversations.last, last.lastActivity < conversation.lastActivity {
                place(conversation)
            } else {
                conversations.append(conversation)
            }
        }
    }

    /// Shows the rows the sync wrote in place of the loaded ones of the same id, each at its place by activity (in
    /// place when its activity did not move). A row not loaded is left for its page, which the sync answers as it
    /// now holds it.
    func rowsChanged(_ fresh: [Conversation]) {
        for row in fresh where rows[row.id] != nil {
            rows[row.id] = row
            show(row.id)
        }
        render()
    }

    /// Shows the loaded row `id` again from what the sync holds and what only this device knows, at its place.
    func show(_ id: ConversationID) {
        guard let row = rows[id], let index = conversations.firstIndex(where: { $0.id == id }) else { return }
        let before = conversations.remove(at: index)
        let conversation = shownRow(row)
        if conversation.lastActivity == before.lastActivity {
            conversations.insert(conversation, at: index)
        } else {
            place(conversation)
        }
    }

    /// `row` as the list shows it, with what only this device knows (`LocalActivity.shown(_:)`).
    func shownRow(_ row: Conversation) -> Conversation { local.shown(row) }

    /// Inserts a row whose activity just moved where the backend lists it, most recent activity first: above every
    /// row active before it, and — the newest event — above rows active at the same instant.
    func place(_ conversation: Conversation) {
        let index = conversations.firstIndex { $0.lastActivity <= conversation.lastActivity } ?? conversations.count
        conversations.insert(conversation, at: index)
    }

    /// A pending message was deleted: a row it previewed shows what it covered again — the newest of what the sync
    /// holds and what else waits to be sent there — with the activity that goes with it.
    func messageDeleted(_ id: MessageID) {
        let outbox = outbox
        guard
            let conversation = local.composedDeleted(
                id, nextPending: { outbox?.pending(in: $0, before: nil, limit: 1).last })
        else { return }
        show(conversation)
        render()
    }

    // MARK: - What arrives

    func syncUpdated(_ update: SyncUpdate) {
        switch update {
        case .rows(let fresh):
            // One state for the update, however many rows it moves (docs/design.md §5).
            rowsChanged(fresh)
        case .messages(let messages):
            // A new message in a deleted conversation brings it back, as the backend does; the rows are the sync's.
            for message in messages { local.deleted.remove(message.conversationID) }
        case .reset(let snapshot):
            // The snapshot's first page takes the rows' place in one state; rows loaded past it stay below.
            let fresh = snapshot.conversations.conversations.filter { !local.deleted.contains($0.id) }
            for row in fresh { rows[row.id] = row }
            let ids = Set(fresh.map(\.id))
            // A message composed here may move a row above the snapshot's order: most recent activity first, ties
            // as the snapshot has them.
            let shown = fresh.map(shownRow).enumerated().sorted {
                $0.element.lastActivity != $1.element.lastActivity
                    ? $0.element.lastActivity > $1.element.lastActivity : $0.offset < $1.offset
            }
            conversations = shown.map(\.element) + conversations.filter { !ids.contains($0.id) }
            if !hasLoadedFirstPage, let last = fresh.last {
                cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
                hasLoadedFirstPage = true
            }
            render { $0.hasMore = $0.hasMore || snapshot.conversations.hasMore }
        case .live(let live):
            // Back online and caught up: a list the cache answered for asks the backend again.
            guard live, showsCachedPage, !store.state.isLoading else { return }
            load()
        case .statuses, .readByMe, .conversation, .removed:
            // What they change in a row comes as `.rows`.
            return
        }
    }
}
