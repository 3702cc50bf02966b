import CourierDomain

extension CourierStrings {
    /// The English table's texts that depend on a count, a status or an error.
    enum English {
        static let failedCount: @Sendable (Int) -> String = { count in
            "\(count) \(count == 1 ? "message" : "messages") failed."
        }

        static let queuedElsewhere: @Sendable (Int, Int) -> String = { elsewhere, total in
            switch elsewhere {
            case total: total == 1 ? "It is in another chat." : "All of them are in other chats."
            case 1: "1 of them is in another chat."
            default: "\(elsewhere) of them are in other chats."
            }
        }

        static let waitingBanner: @Sendable (Int) -> String = { count in
            "\(count) \(count == 1 ? "message" : "messages") waiting to send."
        }

        static let offlineBanner: @Sendable (Int) -> String = { count in
            switch count {
            case ...0: "You're offline. Messages will send when reconnected."
            case 1: "You're offline. 1 message queued."
            default: "You're offline. \(count) messages queued."
            }
        }

        static let unreachableBanner: @Sendable (Int) -> String = { count in
            switch count {
            case ...0: "Can't reach the server. Messages will send when it's back."
            case 1: "Can't reach the server. 1 message queued."
            default: "Can't reach the server. \(count) messages queued."
            }
        }

        static let offlineSendsWhenBack: @Sendable (Int) -> String = { count in
            "You're offline. \(messages(count)) will send when you're back online."
        }

        static let unreachableSendsWhenBack: @Sendable (Int) -> String = { count in
            "Can't reach the server. \(messages(count)) will send when it's back."
        }

        static let reconnectToast: @Sendable (Int) -> String = { count in
            "Connected. Auto-send \(count) queued \(count == 1 ? "message" : "messages")?"
        }

        static let messageStatus: @Sendable (MessageStatus) -> String = { status in
            switch status {
            case .queued: "Queued"
            case .sending: "Sending..."
            case .sent: "Sent"
            case .delivered: "Delivered"
            case .read: "Read"
            case .failed: "Failed - Tap to retry"
            }
        }

        static let statusMark: @Sendable (MessageStatus) -> String = { status in
            switch status {
            case .queued: "Queued"
            case .sending: "Sending..."
            case .sent: "✓ Sent"
            case .delivered: "✓✓ Delivered"
            case .read: "✓✓ Read"
            case .failed: "⚠️ Failed - Tap to retry"
            }
        }

        static let queueBadge: @Sendable (MessageStatus) -> String = { status in
            switch status {
            case .sending: "Sending..."
            case .failed: "Failed"
            default: "Queued"
            }
        }

        static let relativeTime: @Sendable (RelativeTime) -> String = { time in
            switch time {
            case .now: "Now"
            case .minutes(let minutes): "\(minutes)m ago"
            case .hours(let hours): "\(hours)h ago"
            case .yesterday: "Yesterday"
            case .day(let month, let day): "\(months[(max(month, 1) - 1) % 12]) \(day)"
            }
        }

        static let lastSeen: @Sendable (RelativeTime) -> String = { time in
            switch time {
            case .now: "Last seen just now"
            case .yesterday: "Last seen yesterday"
            default: "Last seen \(relativeTime(time))"
            }
        }

        static let deliveryError: @Sendable (DeliveryError) -> String = { error in
            switch error.kind {
            case .offline: "No internet connection. Message will be saved and you can retry later."
            case .unreachable: "Can't reach the server. Message will be saved and sent when it's back."
            case .unanswered: "The server isn't answering. Message will be saved and sent when it's back."
            case .timeout: "The connection timed out. Please try again."
            case .unauthorized: "Authentication error. Please sign in again."
            case .forbidden: "You can't send messages in this conversation."
            case .rateLimited: "Too many attempts. Please wait a moment."
            case .validation: "Message format error. Please try again."
            case .notFound: "Conversation not found. Please refresh and try again."
            case .conflict: "A different message was already sent with this ID. Delete it and send it again."
            case .server, .unknown, .cancelled: "Failed to send message. Please try again."
            }
        }

        static let queueTitle: @Sendable (Int) -> String = { count in "Offline Queue (\(count))" }

        static let deleteConversationMessage: @Sendable (Int, Int) -> String = { queued, failed in
            let count = { (number: Int, status: String) in "\(number) \(status) message\(number == 1 ? "" : "s")" }
            let parts = [(queued, "queued"), (failed, "failed")].filter { $0.0 > 0 }.map(count)
            return parts.isEmpty
                ? "This conversation will be removed from your list."
                : "This conversation will be removed from your list, and its \(parts.joined(separator: " and ")) "
                    + "will be discarded."
        }

        static let writeAbandoned: @Sendable (DeliveryError) -> String = { error in "gave up (\(error))" }

        static let writeGivenUp: @Sendable (String, String) -> String = { kind, why in "\(kind): \(why)" }

        private static let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ]

        private static func messages(_ count: Int) -> String {
            count == 1 ? "1 message" : "\(count) messages"
        }
    }
}
