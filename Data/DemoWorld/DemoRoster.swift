import CourierDomain

/// Who is in the demo world, read from ids alone: the signed-in user `me` and one contact per conversation `c1` …
/// `c120`. `DemoData.make` (CourierFakes) builds the conversations from it; the driver's one-shot send checks its
/// conversation against it without making a single message (issue 33).
public enum DemoRoster {
    /// The user the demo world is signed in as.
    public static let me: UserID = "me"
    /// How many conversations the demo world has: three pages of 50 (the last one holds 20).
    public static let conversationCount = 120

    /// Display names of the other users, one per conversation: `c1` is with Ana, `c2` with Ben, `c3` with Chloe.
    /// Ids are the names in lower case, so they must stay unique and ASCII.
    public static let contactNames: [String] = """
        Ana Ben Chloe David Emma Felix Grace Hugo Isla Jack
        Kira Liam Maya Noah Olivia Pablo Quinn Rosa Sam Tara
        Umar Vera Will Xenia Yusuf Zoe Aaron Bella Carlos Daisy
        Ethan Fiona George Hana Ivan Julia Kenji Lena Marco Nina
        Oscar Priya Rafael Sofia Tomas Uma Victor Wendy Yara Zack
        Amir Beatriz Caleb Dana Elias Freya Gabriel Helen Igor Jade
        Kai Lucia Mateo Nadia Omar Paula Reza Sara Theo Ursula
        Valentin Wanda Yosef Zara Adam Bianca Connor Diana Emil Farah
        Gustav Hazel Iris Jonas Karin Leo Mila Nico Ophelia Peter
        Ruby Stefan Tessa Ulrich Vivian Walter Yasmin Zeno Alice Bruno
        Clara Dmitri Elena Frank Gemma Henrik Ines Joel Katya Lars
        Mei Nils Orla Pedro Rita Simon Tove Ugo Vanya Wes
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// The participants of the conversation `id`, or nil when the demo world has no such conversation.
    public static func participants(of id: ConversationID) -> [UserID]? {
        let raw = id.rawValue
        guard raw.hasPrefix("c"), let number = Int(raw.dropFirst()), (1...conversationCount).contains(number),
            raw == "c\(number)"
        else { return nil }
        return [me, UserID(contactNames[number - 1].lowercased())]
    }
}
