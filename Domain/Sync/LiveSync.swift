/// The receive side of a session, as screens use it: updates as they are applied, read markers as the user sees
/// messages, and which chats are on screen (so a start-over brings their pages). `SyncEngine` (Data) is one.
@MainActor
public protocol LiveSync: AnyObject {
    /// Whether a live connection to the backend is open (caught up and listening).
    var isLive: Bool { get }
    /// Calls `observer` with every update, until the token is released.
    func observe(_ observer: @escaping @MainActor (SyncUpdate) -> Void) -> ObservationToken
    /// A chat of `conversation` is on screen until the token is released.
    func watch(_ conversation: ConversationID) -> ObservationToken
    /// Whether a chat of `conversation` is on screen: its arriving messages are read, not unread.
    func isWatched(_ conversation: ConversationID) -> Bool
    /// The user has seen `conversation` up to `message`: a read receipt goes out (durably; offline it waits), the
    /// conversation's unread count clears, and observers hear `.readByMe`.
    func markRead(_ conversation: ConversationID, upTo message: MessageCursor)
    /// The newest read marker this device holds for `conversation` (sent or waiting to be), if any.
    func readMarker(for conversation: ConversationID) -> MessageCursor?
    /// Takes a page of the conversation list into what the sync holds and answers its rows as the sync holds them:
    /// a row the sync already knows from a newer message keeps it, and a message the page already counts is never
    /// counted again when its event comes (docs/design.md §2.7). A screen shows the answer, never the page itself.
    ///
    /// `mark` is `readsSettled` as it was when the page was requested: a read of this device the backend took after
    /// that may be missing from the page's counts, so the page is not taken at its word where one did (seed 83613).
    func reconcile(_ page: ConversationPage, requestedAt mark: Int) -> ConversationPage
    /// How many of this device's read receipts have left its queue so far (the backend took them, or they were
    /// dropped): taken when a list page is requested, and given back with the page to `reconcile(_:requestedAt:)`.
    var readsSettled: Int { get }
    /// How many times sign-in was renewed since the sync was made. A request sent before a renewal and refused
    /// unauthorized after it was refused for the old sign-in: the caller asks again at once, since no `.live(true)`
    /// may come for it (the feed may have been live all along).
    var signInRenewals: Int { get }
}

extension LiveSync {
    /// A sync that keeps no rows answers the page as it is.
    public func reconcile(_ page: ConversationPage, requestedAt mark: Int) -> ConversationPage { page }
    /// A sync that keeps no rows counts no reads.
    public var readsSettled: Int { 0 }
    /// Takes a page requested just now (`reconcile(_:requestedAt:)` with the current `readsSettled`).
    public func reconcile(_ page: ConversationPage) -> ConversationPage {
        reconcile(page, requestedAt: readsSettled)
    }
    /// A sync that is never told of renewals counts none.
    public var signInRenewals: Int { 0 }
}

/// A session that hears nothing: for apps (and tests) without an event feed.
@MainActor
public final class SilentSync: LiveSync {
    /// Creates it.
    public init() {}
    public var isLive: Bool { false }
    public func observe(_ observer: @escaping @MainActor (SyncUpdate) -> Void) -> ObservationToken {
        ObservationToken {}
    }
    public func watch(_ conversation: ConversationID) -> ObservationToken { ObservationToken {} }
    public func isWatched(_ conversation: ConversationID) -> Bool { false }
    public func markRead(_ conversation: ConversationID, upTo message: MessageCursor) {}
    public func readMarker(for conversation: ConversationID) -> MessageCursor? { nil }
}
