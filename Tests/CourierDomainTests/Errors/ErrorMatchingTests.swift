import CourierDomain
import Testing

/// The Domain's other errors are structs like `DeliveryError`: an app catches one by value, or a kind whatever it
/// carries by `code` (with a `default`, so a later kind breaks nothing), and reads what it carries by name.
@Suite struct ErrorMatchingTests {
    private func failing(_ error: any Error) throws { throw error }

    @Test func anInputErrorIsCaughtByValueOrByCodeAndNamesWhatItCarries() {
        // Given the outbox's refusals
        let errors: [InputError] = [.emptyText, .textTooLong(characters: 5, limit: 4), .unknownMessage("m1")]

        // When an app catches each as it would
        var caught: [String] = []
        for error in errors {
            do {
                try failing(error)
            } catch InputError.emptyText {
                caught.append("empty")
            } catch let error as InputError where error.code == .textTooLong {
                caught.append("\(error.characters ?? 0) of \(error.limit ?? 0)")
            } catch let error as InputError {
                caught.append(error.code == .unknownMessage ? "unknown \(error.messageID?.rawValue ?? "")" : "other")
            } catch {
                caught.append("not an input error")
            }
        }

        // Then each reached its own clause with what it carries
        #expect(caught == ["empty", "5 of 4", "unknown m1"])
        #expect(InputError.invalidImage("blank").reason == "blank" && InputError.emptyText.reason == nil)
    }

    @Test func aStoreErrorIsMatchedByCodeWhateverItCarries() {
        // Given store errors that carry values
        let locked = StoreError.locked(path: "/a")
        let foreign = StoreError.ownedByAnotherUser(owner: "ana", requested: "ben")
        let large = StoreError.recordTooLarge(bytes: 9, limit: 8)

        // When an app asks for their codes and values
        let codes = [locked, foreign, large, .io("EIO")].map(\.code)

        // Then a kind matches whatever it carries, while the values still tell errors apart
        #expect(codes == [.locked, .ownedByAnotherUser, .recordTooLarge, .io])
        #expect(locked != .locked(path: "/b") && locked.path == "/a")
        #expect(foreign.owner == "ana" && foreign.requested == "ben")
        #expect(large.bytes == 9 && large.limit == 8 && StoreError.capacityReached(limit: 3).limit == 3)
        #expect(StoreError.io("EIO").reason == "EIO" && locked.reason == nil)
    }

    @Test func aWriteQueueErrorIsCaughtByValue() {
        // Given a refused write, when it is caught by value, then it matches its own clause only
        var caught = ""
        do { try failing(WriteQueueError.emptyKey) } catch WriteQueueError.emptyKind { caught = "kind" } catch {
            caught = (error as? WriteQueueError)?.code.description ?? "?"
        }
        #expect(caught == "emptyKey")
        #expect(WriteQueueError.unencodablePayload("nan").reason == "nan")
    }
}
