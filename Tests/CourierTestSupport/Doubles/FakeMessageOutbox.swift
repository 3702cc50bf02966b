import CourierDomain
import Foundation
import Testing

/// The outbox a test sets up: the one stand-in for `MessageOutbox`, in memory, for the screens and the sync engine in
/// front of one. It keeps the protocol's promises: compose is `sending` online (and goes out by itself after
/// `latency`) or `queued` offline; Send All sends queued and failed messages one at a time in compose order; a message
/// whose text is in `failures` fails with that error; blank text is refused with `InputError.emptyText`, as the
/// outbox's text rule says. It records every call, and records a test issue naming the call for one it was not set
/// up for: an action on a message that is not pending, or a renewed sign-in (it never pauses).
@MainActor
public final class FakeMessageOutbox: MessageOutbox {
    /// When queued messages go out on reconnect.
    public var policy: SendPolicy = .manual
    /// Always false: this outbox never pauses for sign-in.
    public private(set) var isPausedForSignIn = false
    /// Whether a send is under way.
    public var isBusy: Bool { inFlight > 0 }
    /// Every pending message, in compose order.
    public private(set) var pending: [Message] = []

    /// Texts that fail to send, with the error they fail with.
    public var failures: [String: DeliveryError] = [:]
    /// Messages longer than this are refused.
    public var textLimit = 4_000
    /// How long one send takes on the clock.
    public var latency: Duration = .seconds(1)
    /// While true, `edit` and `delete` change the queue at once but hold their events until `releaseHeldEvents()`,
    /// as an outbox that announces later would: a screen shows such a change from the event alone.
    public var holdsEvents = false

    /// How many times `compose` was called.
    public private(set) var composeCalls = 0
    /// How many times `sendAll` was called.
    public private(set) var sendAllCalls = 0
    /// The ids `send` was called with, in order.
    public private(set) var sendCalls: [MessageID] = []
    /// The ids `edit` was called with, in order.
    public private(set) var editCalls: [MessageID] = []
    /// The ids `delete` was called with, in order.
    public private(set) var deleteCalls: [MessageID] = []
    /// Messages the backend took, in the order it took them.
    public private(set) var delivered: [Message] = []

    private let clock: ManualClock
    private let connectivity: ManualConnectivity
    private let observers = ObserverList<OutboxEvent>()
    private var heldEvents: [OutboxEvent] = []
    private var nextID = 1
    private var inFlight = 0

    /// Whether a Send All made offline waits for the device to come back (then the queue goes by itself).
    public private(set) var sendAllRequested = false
    private var connectivityToken: ObservationToken?

    /// Creates an empty outbox sending on `clock` while `connectivity` is online.
    public init(clock: ManualClock, connectivity: ManualConnectivity) {
        self.clock = clock
        self.connectivity = connectivity
        connectivityToken = connectivity.observe { [weak self] online in
            guard let self, online, sendAllRequested else { return }
            inFlight += 1
            clock.task {
                await self.sendWaiting()
                self.inFlight -= 1
            }
        }
    }

    // MARK: - Test setup

    /// Adds a pending message without telling observers (as if found on disk at launch).
    @discardableResult
    public func seed(
        _ text: String, in conversation: ConversationID = "c1", status: MessageStatus = .queued, ageSeconds: Double = 0,
        lastError: DeliveryError? = nil
    ) -> Message {
        var message = Message(
            id: makeID(), conversationID: conversation, senderID: "me", text: text,
            timestamp: clock.now.addingTimeInterval(-ageSeconds), status: status, lastError: lastError)
        message.outcomeUnknown = lastError?.mayHaveBeenApplied == true
        // Binary insertion: ids past m999 sort before m1000 as text, so appending would break compose order.
        var low = 0
        var high = pending.count
        while low < high {
            let middle = (low + high) / 2
            if Message.composeOrder(pending[middle], message) { low = middle + 1 } else { high = middle }
        }
        pending.insert(message, at: low)
        return message
    }

    /// Tells observers about an event the test makes up (a receipt from the backend, a pause).
    public func announce(_ event: OutboxEvent) { observers.notify(event) }

    /// Tells observers, in order, the events `holdsEvents` held back.
    public func releaseHeldEvents() {
        let events = heldEvents
        heldEvents = []
        for event in events { observers.notify(event) }
    }

    /// Whether anyone still observes the outbox.
    public var hasObservers: Bool { !observers.isEmpty }

    // MARK: - MessageOutbox

    /// Calls `observer` with every change, until the token is released.
    public func observe(_ observer: @escaping @MainActor (OutboxEvent) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Composes a message: `sending` (and sent after `latency`) online, `queued` offline; announced before it
    /// returns.
    @discardableResult
    public func compose(text: String, in conversation: ConversationID) throws -> Message {
        try compose(text: text, media: nil, in: conversation)
    }

    /// Composes text or, with `media`, an image whose caption may be empty; a blank image URL is refused.
    @discardableResult
    public func compose(text: String, media: MediaAttachment?, in conversation: ConversationID) throws -> Message {
        composeCalls += 1
        if media == nil, text.allSatisfy(\.isWhitespace) { throw InputError.emptyText }
        if let media, media.url.allSatisfy(\.isWhitespace) { throw InputError.invalidImage("the image has no URL") }
        if text.count > textLimit { throw InputError.textTooLong(characters: text.count, limit: textLimit) }
        let online = connectivity.isOnline
        let message = Message(
            id: makeID(), conversationID: conversation, senderID: "me", text: text, timestamp: clock.now,
            status: online ? .sending : .queued, media: media)
        pending.append(message)
        observers.notify(.changed(message))
        if online {
            inFlight += 1
            clock.task {
                await self.transmit(message.id)
                self.inFlight -= 1
            }
        }
        return message
    }

    /// Sends every queued and failed message, one at a time in compose order; offline, keeps the request until the
    /// device is back, as the real outbox does.
    public func sendAll() async {
        sendAllCalls += 1
        guard connectivity.isOnline else {
            sendAllRequested = pending.contains { $0.status == .queued || $0.status == .failed }
            return
        }
        inFlight += 1
        defer { inFlight -= 1 }
        await sendWaiting()
    }

    private func sendWaiting() async {
        for id in pending.filter({ $0.status == .queued || $0.status == .failed }).map(\.id) {
            guard markSending(id) else { continue }
            await transmit(id)
        }
        sendAllRequested = false
    }

    /// Sends one queued or failed message.
    public func send(_ id: MessageID) async throws {
        sendCalls.append(id)
        guard let message = pending.first(where: { $0.id == id }), message.status != .sending else {
            Issue.record("FakeMessageOutbox: send(\(id)) for a message that is not queued or failed")
            throw InputError.unknownMessage(id)
        }
        inFlight += 1
        defer { inFlight -= 1 }
        markSending(id)
        await transmit(id)
    }

    /// Replaces the text of a queued or failed message.
    @discardableResult
    public func edit(_ id: MessageID, text: String) throws -> Message {
        editCalls.append(id)
        let index = try waitingIndex(id, "edit")
        if pending[index].outcomeUnknown { throw InputError.outcomeUnknown(id) }
        if text.allSatisfy(\.isWhitespace) { throw InputError.emptyText }
        pending[index].text = text
        announceOrHold(.changed(pending[index]))
        return pending[index]
    }

    /// Removes a queued or failed message.
    public func delete(_ id: MessageID) throws {
        deleteCalls.append(id)
        let index = try waitingIndex(id, "delete")
        pending.remove(at: index)
        announceOrHold(.deleted(id))
    }

    /// Records an issue: the screens never renew sign-in.
    public func signInRenewed() { Issue.record("FakeMessageOutbox: signInRenewed() was not expected") }

    // MARK: - Mechanics

    private func announceOrHold(_ event: OutboxEvent) {
        if holdsEvents { heldEvents.append(event) } else { observers.notify(event) }
    }

    private func makeID() -> MessageID {
        defer { nextID += 1 }
        let digits = String(nextID)
        return MessageID("m" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits)
    }

    private func waitingIndex(_ id: MessageID, _ call: String) throws -> Int {
        guard let index = pending.firstIndex(where: { $0.id == id }),
            pending[index].status == .queued || pending[index].status == .failed
        else {
            Issue.record("FakeMessageOutbox: \(call)(\(id)) for a message that is not queued or failed")
            throw InputError.unknownMessage(id)
        }
        return index
    }

    @discardableResult
    private func markSending(_ id: MessageID) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        pending[index].status = .sending
        pending[index].attempts += 1
        observers.notify(.changed(pending[index]))
        return true
    }

    private func transmit(_ id: MessageID) async {
        try? await clock.sleep(for: latency)
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
        var message = pending[index]
        if let error = failures[message.text] {
            message.status = .failed
            message.lastError = error
            pending[index] = message
        } else {
            message.status = .sent
            message.lastError = nil
            pending.remove(at: index)
            delivered.append(message)
        }
        observers.notify(.changed(message))
    }
}
