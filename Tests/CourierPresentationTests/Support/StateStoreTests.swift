import CourierDomain
import CourierPresentation
import Testing

/// A store replays its state, emits only on change, and a batch of changes is one state.
@MainActor
@Suite struct StateStoreTests {
    /// Records what a store emits, the replay first.
    @MainActor
    private final class Recorder {
        private(set) var states: [[String]] = []
        private var token: ObservationToken?

        init(_ store: StateStore<[String]>) {
            token = store.observe { [weak self] state in self?.states.append(state) }
        }
    }

    @Test func everyChangeOutsideABatchIsAStateOfItsOwn() {
        // Given a store holding one row, observed
        let store = StateStore(["a"])
        let recorder = Recorder(store)

        // When two rows are added one after the other, and then nothing changes
        store.update { $0.append("b") }
        store.edit { rows in
            rows.append("c")
            return true
        }
        store.update { _ in }

        // Then each change was a state, and the one that changed nothing was none
        #expect(recorder.states == [["a"], ["a", "b"], ["a", "b", "c"]])
    }

    @Test func aBatchOfChangesIsOneStateAfterItsLastChange() {
        // Given a store holding one row, observed
        let store = StateStore(["a"])
        let recorder = Recorder(store)

        // When one batch adds a row, edits another and (in a batch inside it) adds a third
        store.batch {
            store.update { $0.append("b") }
            store.edit { rows in
                rows[0] = "A"
                return true
            }
            store.batch { store.update { $0.append("c") } }
        }

        // Then observers heard one state, the last
        #expect(recorder.states == [["a"], ["A", "b", "c"]])
    }

    @Test func aBatchThatChangesNothingIsNoState() {
        // Given a store, observed
        let store = StateStore(["a"])
        let recorder = Recorder(store)

        // When a batch makes only changes that change nothing, and then one change follows it
        store.batch {
            store.update { _ in }
            store.edit { _ in false }
        }
        store.update { $0.append("b") }

        // Then only the later change was a state
        #expect(recorder.states == [["a"], ["a", "b"]])
    }
}
