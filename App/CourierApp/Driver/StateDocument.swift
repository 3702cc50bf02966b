import CourierData
import CourierDomain
import CourierOneShot
import CourierPresentation
import Foundation

/// Builds the state document of docs/driver.md: everything a screen shows, plus the simulated server's counters.
@MainActor
enum StateDocument {
    static func build(app: AppContainer) -> JSONValue {
        let world = app.world
        let banner = app.messaging.banner.state
        let queue = app.messaging.queue.state
        let list = app.conversations.list.state
        return .object([
            (
                "network",
                .object([
                    ("online", .bool(world.network.isOnline)), ("profile", .string(world.network.profile.rawValue)),
                    ("failRate", .number(world.network.failRate)),
                    ("reachable", .bool(app.client.reachability.isReachable)),
                    ("type", .string(app.client.connectivity.networkPath.type.rawValue)),
                ])
            ),
            ("policy", .string(app.client.outbox.policy == .automatic ? "auto" : "manual")),
            (
                "auth",
                .object([
                    ("expired", .bool(world.backend.isSignInExpired)),
                    ("paused", .bool(app.client.outbox.isPausedForSignIn)),
                ])
            ),
            (
                "banner",
                .object([
                    ("visible", .bool(banner.banner.visible)), ("text", .string(banner.banner.text)),
                    ("queuedCount", .int(banner.banner.queuedCount)), ("connected", .bool(banner.connected)),
                    // New keys go last: readers of the document match on the order of the older ones.
                    ("actions", labels(banner.banner.showsSendAll ? [banner.banner.sendAllLabel] : [])),
                ])
            ),
            (
                "toast",
                .object([
                    ("visible", .bool(banner.toast.visible)), ("text", .string(banner.toast.text)),
                    ("queuedCount", .int(banner.toast.queuedCount)),
                    (
                        "actions",
                        labels(banner.toast.visible ? [banner.toast.yesLabel, banner.toast.reviewFirstLabel] : [])
                    ),
                ])
            ),
            ("chat", chat(app.chat?.state)),
            (
                "queue",
                .object([
                    ("title", .string(queue.title)), ("open", .bool(queue.isPresented)),
                    ("count", .int(queue.rows.count)),
                    ("empty", .optional(queue.emptyState?.title)),
                    (
                        "items",
                        .array(
                            queue.rows.map { row in
                                .object([
                                    ("id", .string(row.id.rawValue)), ("text", .string(row.text)),
                                    ("preview", .string(row.preview)), ("status", .string(row.status.rawValue)),
                                    ("badge", .string(row.badge)),
                                    ("conversationId", .string(row.conversationID.rawValue)),
                                    ("conversationName", .string(row.conversationName)),
                                    ("time", .string(row.timeText)),
                                ])
                            })
                    ),
                    ("actions", labels([queue.rowActions.sendNow, queue.rowActions.edit, queue.rowActions.delete])),
                    ("sendAll", .string(queue.sendAllLabel)),
                ])
            ),
            (
                "conversations",
                .object([
                    ("count", .int(list.items.count)), ("hasMore", .bool(list.hasMore)),
                    ("error", .optional(list.error)),
                    (
                        "items",
                        .array(
                            list.items.map { item in
                                .object([
                                    ("id", .string(item.id.rawValue)), ("title", .string(item.title)),
                                    ("preview", .string(item.preview)), ("timestamp", .string(item.timestamp)),
                                    ("unreadCount", .int(item.unreadCount)),
                                    ("previewImage", .optional(item.previewImageURL)),
                                ])
                            })
                    ),
                    (
                        "alert",
                        list.alert.map { alert in
                            .object([
                                ("conversationId", .string(alert.conversationID.rawValue)),
                                ("title", .string(alert.title)),
                                ("message", .string(alert.message)),
                                ("actions", .array(alert.actions.map { .string($0) })),
                            ])
                        } ?? .null
                    ),
                ])
            ),
            (
                "writes",
                .object([
                    ("pending", .int(app.profile.state.pendingCount)),
                    ("rejected", .array(app.profile.state.givenUp.map { .string($0) })),
                ])
            ),
            (
                "profile",
                .object([
                    (
                        "displayName",
                        .optional(
                            app.client.users.cachedUser(app.currentUser)?.displayName
                                ?? world.backend.user(app.currentUser)?.displayName)
                    )
                ])
            ),
            ("server", server(app)),
            ("sync", sync(app.client.syncEngine)),
            ("storage", .object([("recovered", .array(world.recovered.map(recovered)))])),
            ("clock", .object([("now", .string(iso8601(world.clock.now)))])),
        ])
    }

    /// `sync.*`: the receive side.
    static func sync(_ engine: SyncEngine?) -> JSONValue {
        .object([
            ("live", .bool(engine?.isLive ?? false)), ("cursor", .optional(engine?.cursor?.description)),
            ("resets", .int(engine?.resets ?? 0)), ("catchingUp", .bool(engine?.isCatchingUp ?? false)),
            ("receiptsPending", .int(engine?.receipts.count ?? 0)),
        ])
    }

    /// `server.*`: the in-process backend's counters. With `--server` only what this device counted itself
    /// (`roundTrips`): the in-process backend is not the one in use, and every key that would read it is absent
    /// rather than wrong (`server ID [N]` reads the real one).
    static func server(_ app: AppContainer) -> JSONValue {
        let world = app.world
        guard world.network.remote == nil else {
            return .object([("roundTrips", .int(world.network.roundTrips))])
        }
        return .object(
            [
                (
                    "counts",
                    .object(
                        world.backend.conversationIDs.sorted(by: naturalOrder).map { id in
                            (id.rawValue, .int(world.backend.messageCount(in: id)))
                        })
                ),
                ("duplicatesIgnored", .int(world.backend.duplicatesIgnored)),
                ("requests", .int(world.backend.requests)), ("roundTrips", .int(world.network.roundTrips)),
                ("displayName", .optional(world.backend.user(app.currentUser)?.displayName)),
            ] + reads(app))
    }

    /// `server.reads.ID.USER`: the newest message each participant has read, for the open chat's conversation and
    /// every conversation where someone has a marker. Absent with `--server` (the markers are the server's).
    static func reads(_ app: AppContainer) -> [(String, JSONValue)] {
        guard app.world.network.remote == nil else { return [] }
        let backend = app.world.backend
        var ids = Set(backend.markedConversations)
        if let open = app.chat?.state.conversationID { ids.insert(open) }
        return [
            (
                "reads",
                .object(
                    ids.sorted(by: naturalOrder).map { id in
                        (
                            id.rawValue,
                            .object(backend.reads(in: id).map { ($0.user.rawValue, .optional($0.messageID?.rawValue)) })
                        )
                    })
            )
        ]
    }

    static func chat(_ state: ChatViewModel.State?) -> JSONValue {
        guard let state else {
            return .object([
                ("conversationId", .null), ("title", .null), ("count", .int(0)), ("hasMore", .bool(false)),
                ("error", .null), ("messages", .array([])), ("failed", .array([])), ("alert", .null),
                ("presence", .null), ("beginning", .null),
            ])
        }
        return .object([
            ("conversationId", .string(state.conversationID.rawValue)), ("title", .string(state.title)),
            ("count", .int(state.messages.count)), ("hasMore", .bool(state.hasMore)), ("error", .optional(state.error)),
            (
                "messages",
                .array(
                    state.messages.map { row in
                        .object([
                            ("id", .string(row.id.rawValue)), ("text", .string(row.text)),
                            ("status", .string(row.status.rawValue)),
                            ("senderId", .string(row.senderID.rawValue)), ("statusLabel", .string(row.statusLabel)),
                            // New keys go last: readers of the document match on the order of the older ones.
                            ("time", .string(row.timeText)), ("image", .optional(row.imageURL)),
                            ("statusMark", .string(row.isOutgoing ? MessageRow.statusMark(for: row.status) : "")),
                        ])
                    })
            ),
            ("failed", .array(state.failedMessageIDs.map { .string($0.rawValue) })),
            (
                "alert",
                state.alert.map { alert in
                    .object([
                        ("messageId", .string(alert.messageID.rawValue)), ("title", .string(alert.title)),
                        ("message", .string(alert.message)), ("actions", .array(alert.actions.map { .string($0) })),
                    ])
                } ?? .null
            ),
            ("presence", .optional(state.presence)),
            ("beginning", .optional(state.showsBeginning ? state.beginningText : nil)),
            ("notice", .optional(state.showsQueuedNotice ? state.queuedNoticeText : nil)),
            ("bannerElsewhere", .optional(state.bannerElsewhereText)),
        ])
    }

    /// Buttons' labels, as a screen shows them.
    static func labels(_ labels: [String]) -> JSONValue { .array(labels.map { .string($0) }) }

    /// One entry of `storage.recovered`: the file, and what its replay skipped and cut, or the settings field
    /// replaced by its default.
    static func recovered(_ damage: RecoveredDamage) -> JSONValue {
        var members: [(String, JSONValue)] = [("file", .string(damage.file))]
        if let report = damage.report {
            members += [
                ("skippedRecords", .int(report.corruptRecords)), ("truncatedBytes", .int(report.truncatedBytes)),
                ("recoveredRecords", .int(report.recoveredRecords)),
            ]
        }
        if let problem = damage.problem {
            members += [("field", .string(problem.field)), ("problem", .string(problem.reason))]
        }
        members.append(("text", .string(damage.description)))
        return .object(members)
    }

    /// `c2` before `c10`: ids compared by their numeric suffix when they share a prefix.
    static func naturalOrder(_ lhs: ConversationID, _ rhs: ConversationID) -> Bool {
        let left = lhs.rawValue.split(whereSeparator: \.isNumber).first.map(String.init) ?? ""
        let right = rhs.rawValue.split(whereSeparator: \.isNumber).first.map(String.init) ?? ""
        if left == right, let a = Int(lhs.rawValue.dropFirst(left.count)),
            let b = Int(rhs.rawValue.dropFirst(right.count))
        {
            return a < b
        }
        return lhs.rawValue < rhs.rawValue
    }

    static func iso8601(_ date: Date) -> String { InternetTimestamp.string(date) }
}
