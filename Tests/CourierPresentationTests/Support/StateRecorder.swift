import CourierDomain
import CourierPresentation

/// Records every state a view model emits, so a test can assert the whole history (`recorder.states == [...]`).
@MainActor
final class StateRecorder<Model: StateEmitting> {
    private(set) var states: [Model.State] = []
    private var token: ObservationToken?

    init(_ model: Model) {
        token = model.observe { [weak self] state in self?.states.append(state) }
    }

    /// The newest state.
    var last: Model.State? { states.last }

    /// Stops recording.
    func stop() { token = nil }
}
