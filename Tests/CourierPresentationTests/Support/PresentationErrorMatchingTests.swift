import CourierDomain
import CourierPresentation
import Testing

/// Presentation's errors are structs like `DeliveryError`: an app catches one by value, or a kind whatever it carries
/// by `code`, and reads what it carries by name.
@Suite struct PresentationErrorMatchingTests {
    @Test func aScreensRefusalIsMatchedByValueOrByCodeWithWhatItCarries() {
        // Given a screen's refusals
        let wrong = PresentationError.wrongStatus("m1", .sending)
        let action = PresentationError.unknownAction("Maybe", available: ["Retry", "Cancel"])

        // When an app matches them
        let codes = [wrong, action, .noToastShowing, .unknownConversation("c9")].map(\.code)

        // Then the codes match whatever the errors carry, and the values are there by name
        #expect(codes == [.wrongStatus, .unknownAction, .noToastShowing, .unknownConversation])
        #expect(wrong.refusedMessage?.id == "m1" && wrong.refusedMessage?.status == .sending)
        #expect(action.refusedAction?.available == ["Retry", "Cancel"])
        #expect(PresentationError.unknownConversation("c9").conversationID == "c9")
        #expect(wrong != .wrongStatus("m1", .queued))
    }

    @Test func aDisplayNameRefusalIsCaughtByValueAndTellsTheLimit() {
        // Given the two refusals of a display name
        func failing(_ error: any Error) throws { throw error }
        var caught: [String] = []

        // When an app catches each
        for error in [DisplayNameError.empty, .tooLong(characters: 65, limit: 64)] {
            do { try failing(error) } catch DisplayNameError.empty { caught.append("empty") } catch {
                let refusal = error as? DisplayNameError
                caught.append("\(refusal?.code.description ?? "?") \(refusal?.limit ?? 0)")
            }
        }

        // Then each reached its own clause with what it carries
        #expect(caught == ["empty", "tooLong 64"])
    }
}
