import CourierDomain
import Observation

/// A view model as SwiftUI wants it: an `@Observable` object a view holds directly (`@State var chat =
/// ObservableViewModel(chatViewModel)`) whose `state` property is tracked by Observation.
///
/// The view model's closure output (`observe(_:)`) stays the core; this class is a thin adapter over it. It holds
/// the view model (the screen owns its view model) and the view model holds it only weakly, so releasing the
/// screen releases both and ends the observation.
@MainActor
@Observable
public final class ObservableViewModel<Model: StateEmitting> {
    /// The view model; the screen calls its inputs (`viewModel.send(text:)`).
    @ObservationIgnored public let viewModel: Model
    /// The current state, tracked by Observation.
    public private(set) var state: Model.State

    @ObservationIgnored private var token: ObservationToken?

    /// Wraps `viewModel`; `state` follows every state it emits.
    public init(_ viewModel: Model) {
        self.viewModel = viewModel
        state = viewModel.state
        token = viewModel.observe { [weak self] next in
            // The replayed current state is already in place; assigning it again would only notify trackers.
            guard let self, self.state != next else { return }
            self.state = next
        }
    }
}
