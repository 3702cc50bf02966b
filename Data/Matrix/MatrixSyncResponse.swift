import Foundation

/// The parts of a `/sync` answer Courier reads. Everything is optional and read leniently: a homeserver (or a client
/// that wrote an event) that leaves a field out or gives it another type costs that field, never the answer.
struct MatrixSyncResponse: Decodable {
    var nextBatch: String
    var rooms: Rooms?

    struct Rooms: Decodable {
        var join: [String: JoinedRoom]?
        var invite: [String: Ignored]?
        var leave: [String: Ignored]?
    }

    struct JoinedRoom: Decodable {
        var timeline: Timeline?
        var state: Events?
        var ephemeral: Events?
        var accountData: Events?
        var unreadNotifications: UnreadNotifications?
        var unreadCount: Int?

        private enum CodingKeys: String, CodingKey {
            case timeline, state, ephemeral
            case accountData = "account_data"
            case unreadNotifications = "unread_notifications"
            case unreadCount = "org.matrix.msc2654.unread_count"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            timeline = try? container.decodeIfPresent(Timeline.self, forKey: .timeline)
            state = try? container.decodeIfPresent(Events.self, forKey: .state)
            ephemeral = try? container.decodeIfPresent(Events.self, forKey: .ephemeral)
            accountData = try? container.decodeIfPresent(Events.self, forKey: .accountData)
            unreadNotifications = try? container.decodeIfPresent(UnreadNotifications.self, forKey: .unreadNotifications)
            unreadCount = try? container.decodeIfPresent(Int.self, forKey: .unreadCount)
        }

        /// The room's unread count: MSC2654's where the homeserver gives it, else its notification count.
        var unread: Int? { unreadCount ?? unreadNotifications?.notificationCount }
    }

    struct Timeline: Decodable {
        var events: [MatrixEvent]
        var limited: Bool
        var prevBatch: String?

        private enum CodingKeys: String, CodingKey {
            case events, limited
            case prevBatch = "prev_batch"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            events =
                (try? container.decodeIfPresent([Lenient<MatrixEvent>].self, forKey: .events))?
                .compactMap(\.value) ?? []
            limited = (try? container.decodeIfPresent(Bool.self, forKey: .limited)) ?? false
            prevBatch = try? container.decodeIfPresent(String.self, forKey: .prevBatch)
        }
    }

    struct Events: Decodable {
        var events: [MatrixEvent]

        private enum CodingKeys: String, CodingKey { case events }

        /// These events.
        init(events: [MatrixEvent]) { self.events = events }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            events =
                (try? container.decodeIfPresent([Lenient<MatrixEvent>].self, forKey: .events))?
                .compactMap(\.value) ?? []
        }
    }

    struct UnreadNotifications: Decodable {
        var notificationCount: Int?

        private enum CodingKeys: String, CodingKey {
            case notificationCount = "notification_count"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case nextBatch = "next_batch"
        case rooms
    }
}

/// A value read if it can be, nil otherwise: one malformed element does not cost its array.
struct Lenient<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
}

/// Any JSON value, not read: for objects whose presence is all that counts (an invite, a room left).
struct Ignored: Decodable {
    init(from decoder: any Decoder) throws {}
}
