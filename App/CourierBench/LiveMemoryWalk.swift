import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// `courier-bench live-walk`: the memory walk with the live scenario, in a process of its own so that its peak
/// resident set is its own (`courier-bench live` starts it and reads the marks it prints).
///
/// The in-process backend stands in for a server, and a server holding a chat of 100,000 messages needs more than
/// the whole floor by itself — that is not the app's memory. So the backend's side is made first: the demo data
/// plus a chat of 100,000 messages with Ana, a client run once to take its feed cursor (a device that was online
/// before), then 10,000 messages from four peers while the client is away. Then the free heap is handed back to
/// the system (`malloc_trim`) and the peak reset (`/proc/self/clear_refs`), and the client is opened again and
/// does everything an app would, each step measured from there:
///
/// - it launches online and catches up the 10,000 events (the conversation list open);
/// - the walk of `docs/examples/memory-walk.txt`: every conversation listed, 10 chats opened in turn, all 1,000
///   messages of `c1` paged in;
/// - the chat of 100,000 opens on its first page and 100 messages arrive in it one at a time.
///
/// The app's own peak is then the process's resident set at start (the runtime and the binary) plus how far the
/// peak rose above the resident set at the reset. Prints one line per mark: `mark RESIDENT-BYTES PEAK-BYTES NAME`,
/// the marks being the start, the server side made (its peak the whole process's until then), the reset, then the
/// client's steps. (The peak `wait4` reports for a child of a large process is no use here: on Linux the child
/// inherits its parent's peak through `exec`.)
@MainActor
struct LiveMemoryWalk {
    static let subcommand = "live-walk"
    static let chatSize = 100_000
    static let events = 10_000
    static let incoming = 100

    func run() async throws {
        var marks = [Self.mark("start")]
        let fixture = try LiveFixture(link: .network) { LiveData.walk(chatSize: Self.chatSize, now: $0) }
        defer { fixture.close() }
        try await settle(fixture, "the first launch") { fixture.isSettled }
        fixture.setOnline(false)
        try await settle(fixture, "going offline") { true }
        fixture.client.close()
        try Self.peersSend(to: fixture.backend, at: fixture.clock.now)
        marks.append(Self.mark("server side made"))
        Self.trimHeap()
        Self.resetPeak()
        marks.append(Self.mark("server side ready"))

        fixture.setOnline(true)
        try fixture.reopen()
        let client = fixture.client
        let list = ConversationsListViewModel(session: client)
        list.load()
        try await settle(fixture, "the catch-up of \(Self.events)") { fixture.isSettled && !list.hasPendingWork }
        guard let engine = fixture.engine, engine.appliedEvents >= Self.events else {
            throw BenchFailure("the client applied \(fixture.engine?.appliedEvents ?? 0) of \(Self.events) events")
        }
        marks.append(Self.mark("caught up"))

        for _ in 0..<2 {
            list.loadMore()
            try await settle(fixture, "the list's next page") { !list.hasPendingWork }
        }
        guard list.state.items.count == DemoData.conversationCount + 1 else {
            throw BenchFailure("the list shows \(list.state.items.count) conversations")
        }
        let banner = ConnectivityBannerViewModel(session: client)
        var chat: ChatViewModel?
        for index in [2, 3, 4, 5, 6, 7, 8, 9, 10, 1] {
            chat = try await openChat(ConversationID("c\(index)"), fixture: fixture, banner: banner)
        }
        guard let c1 = chat else { return }
        for _ in 0..<19 {
            c1.loadOlderMessages()
            try await settle(fixture, "c1's older page") { !c1.hasPendingWork }
        }
        guard c1.state.messages.count == DemoData.anaMessageCount else {
            throw BenchFailure("c1 shows \(c1.state.messages.count) messages, not all 1,000")
        }
        marks.append(Self.mark("walk done"))

        chat = try await openChat(LiveData.chat, fixture: fixture, banner: banner)
        for index in 0..<Self.incoming {
            let message = Message(
                id: MessageID("incoming-\(index)"), conversationID: LiveData.chat, senderID: "ana",
                text: LiveData.phrases[index % LiveData.phrases.count], timestamp: fixture.clock.now,
                status: .sent)
            try fixture.backend.receive(message)
            try await settle(fixture, "an incoming message") {
                chat?.state.messages.last?.id == message.id && fixture.isSettled
            }
        }
        marks.append(Self.mark("chat of \(Self.chatSize.formatted()) open, \(Self.incoming) arrived"))
        withExtendedLifetime((list, banner, chat)) {}
        for mark in marks { print("mark \(mark.resident) \(mark.peak) \(mark.name)") }
    }

    private func openChat(_ id: ConversationID, fixture: LiveFixture, banner: ConnectivityBannerViewModel)
        async throws -> ChatViewModel
    {
        let chat = ChatViewModel(session: fixture.client, conversationID: id, title: id.rawValue, banner: banner)
        chat.start()
        try await settle(fixture, "opening \(id)") { !chat.state.isLoading && !chat.hasPendingWork }
        return chat
    }

    private func settle(_ fixture: LiveFixture, _ what: String, until condition: () -> Bool) async throws {
        guard await fixture.clock.run(until: condition) else { throw BenchFailure("\(what) never finished") }
        await fixture.clock.idle()
    }

    /// Peers send the catch-up's messages: the first four demo conversations after `c1` take turns.
    private static func peersSend(to backend: InMemoryChatBackend, at now: Date) throws {
        let conversations = (2...5).compactMap { index -> (ConversationID, UserID)? in
            let id = ConversationID("c\(index)")
            guard let peer = backend.conversation(id)?.participantIDs.first(where: { $0 != LiveData.me }) else {
                return nil
            }
            return (id, peer)
        }
        let ids = IDGenerator.seeded(31)
        for index in 0..<events {
            let time = now.addingTimeInterval(Double(index) / 1_000)
            try backend.receive(LiveData.peerMessage(index, id: ids.next(), in: conversations, at: time))
        }
    }

    // MARK: - Memory

    /// The resident set and its peak at a point of the walk, in bytes.
    struct Mark {
        var name: String
        var resident: Int
        var peak: Int
    }

    /// The resident set now (`VmRSS` in /proc/self/status) and its peak (`VmHWM`), in bytes; 0 without /proc.
    static func mark(_ name: String) -> Mark {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let field = { (key: String) -> Int in
            for line in status.split(separator: "\n") where line.hasPrefix(key) {
                return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1_024
            }
            return 0
        }
        return Mark(name: name, resident: field("VmRSS:"), peak: field("VmHWM:"))
    }

    /// Lowers the peak to the resident set now (Linux: writing 5 to /proc/self/clear_refs).
    static func resetPeak() {
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return }
        _ = write(file, "5", 1)
        close(file)
    }

    /// Hands the heap's free pages back to the system (glibc's `malloc_trim`, looked up at run time), so that what
    /// the client allocates later shows in the resident set instead of hiding in memory the backend freed.
    static func trimHeap() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
    }
}
