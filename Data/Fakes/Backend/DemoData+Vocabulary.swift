extension DemoData {
    /// Everyday chat lines the generated messages are drawn from.
    static let phrases: [String] = [
        "Hey, how's it going?", "Running 10 minutes late, sorry!", "Did you see the game last night?",
        "Lunch tomorrow?", "Sounds good to me.", "Can you send me the slides?", "Just landed ✈️",
        "Thanks so much!", "Haha, that's brilliant", "On my way.", "Let me check and get back to you.",
        "What time works for you?", "I'll bring snacks.", "Happy birthday! 🎉", "Call me when you're free.",
        "Agreed.", "Where did we park?", "Good luck today!", "Sent you the address.", "Coffee at 3?",
        "That movie was great.", "Can't make it tonight, next week?", "Almost done with the draft.",
        "The train is delayed again.", "See you at the gym.", "Did you feed the cat?", "Love that photo!",
        "Meeting moved to Thursday.", "Ok 👍", "Let's do it.", "Any plans for the weekend?",
        "I found your keys.", "Traffic is terrible.", "Dinner is ready!", "Nice work on the launch.",
        "Remind me tomorrow?", "Just finished the book you lent me.", "Weather looks good for Saturday.",
        "Can you pick up milk?", "Talk later!",
    ]

    /// The opening of the conversation with Ben: exactly three messages.
    static let benDialogue: [(fromMe: Bool, text: String)] = [
        (false, "Are we still on for Friday?"),
        (true, "Yes! 7pm at the usual place."),
        (false, "Perfect, see you there."),
    ]
}
