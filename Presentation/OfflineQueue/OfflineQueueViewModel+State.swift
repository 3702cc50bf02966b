import CourierDomain

extension OfflineQueueViewModel {
    /// What the Offline Queue screen shows.
    public struct State: Equatable, Sendable {
        /// "Offline Queue (3)".
        public var title: String
        /// The pending messages, in compose order.
        public var rows: [OfflineQueueRow]
        /// Shown instead of the list when nothing is pending.
        public var emptyState: EmptyState?
        /// The labels of each row's buttons: Send Now, Edit, Delete.
        public var rowActions: RowActions
        /// The label of the screen's Send All.
        public var sendAllLabel: String
        /// Whether the screen is shown: `present()` (the banner's Review, Review First) opens it, Close
        /// (`close()`) and a Send All that empties it close it.
        public var isPresented = false
        /// The label of the screen's Close.
        public var closeLabel = CourierStrings.english.close
        /// The sheet Edit on a row opens, while it shows.
        public var editSheet: EditSheet?
        /// The confirmation Delete on a row opens, while it shows.
        public var deleteConfirmation: DeleteConfirmation?

        /// Creates a state.
        public init(
            title: String, rows: [OfflineQueueRow], emptyState: EmptyState?, rowActions: RowActions = RowActions(),
            sendAllLabel: String = CourierStrings.english.sendAll, editSheet: EditSheet? = nil,
            deleteConfirmation: DeleteConfirmation? = nil
        ) {
            self.title = title
            self.rows = rows
            self.emptyState = emptyState
            self.rowActions = rowActions
            self.sendAllLabel = sendAllLabel
            self.editSheet = editSheet
            self.deleteConfirmation = deleteConfirmation
        }
    }

    /// The empty list's title and explanation.
    public struct EmptyState: Equatable, Sendable {
        /// "No Queued Messages".
        public var title: String
        /// "Messages you compose offline will appear here".
        public var message: String

        /// Creates an empty state.
        public init(title: String, message: String) {
            self.title = title
            self.message = message
        }

        /// The empty state in `strings`' words.
        public init(strings: CourierStrings) {
            self.init(title: strings.queueEmptyTitle, message: strings.queueEmptyMessage)
        }

        /// The one empty state this screen shows, in English.
        public static let standard = EmptyState(strings: .english)
    }

    /// The labels of a row's buttons.
    public struct RowActions: Equatable, Sendable {
        /// "Send Now".
        public var sendNow: String
        /// "Edit".
        public var edit: String
        /// "Delete".
        public var delete: String

        /// The labels in `strings`' words.
        public init(strings: CourierStrings = .english) {
            sendNow = strings.sendNow
            edit = strings.edit
            delete = strings.delete
        }
    }

    /// The sheet that edits a queued or failed message: "Edit Message", its text as edited so far, Cancel and Save —
    /// Save disabled while the text is blank.
    public struct EditSheet: Equatable, Sendable {
        /// The message it edits.
        public var messageID: MessageID
        /// Its title.
        public var title: String
        /// The text as edited so far.
        public var text: String
        /// Whether Save is enabled: the text is not blank.
        public var canSave: Bool
        /// Its buttons, in order, by what they do: Cancel, Save.
        public var buttons: [DialogAction]
        /// Its buttons' labels, in order.
        public var actions: [String]

        /// The sheet for `messageID` showing `text`, in `strings`' words.
        public init(messageID: MessageID, text: String, strings: CourierStrings = .english) {
            self.messageID = messageID
            title = strings.editSheetTitle
            self.text = text
            // Only whether Save is offered: what is stored is the outbox's rule (docs/design.md §3).
            canSave = text.contains { !$0.isWhitespace && !$0.isNewline }
            buttons = [.cancel, .save]
            actions = buttons.map(strings.label(for:))
        }
    }

    /// The confirmation before a queued or failed message is deleted: "Delete Message", with Delete and Cancel.
    public struct DeleteConfirmation: Equatable, Sendable, DialogButtons {
        /// The message it is about.
        public var messageID: MessageID
        /// Its title.
        public var title: String
        /// Its text.
        public var message: String
        /// Its buttons, in order, by what they do: Delete, Cancel.
        public var buttons: [DialogAction]
        /// Its buttons' labels, in order.
        public var actions: [String]

        /// The confirmation for `messageID`, in `strings`' words.
        public init(messageID: MessageID, strings: CourierStrings = .english) {
            self.messageID = messageID
            title = strings.deleteMessageTitle
            message = strings.deleteMessageText
            buttons = [.delete, .cancel]
            actions = buttons.map(strings.label(for:))
        }
    }
}
