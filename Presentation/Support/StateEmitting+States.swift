import CourierDomain

extension StateEmitting where State: Sendable {
    /// The view model's states as an async sequence: the current state first, then every change, in order
    /// (`for await state in viewModel.states`). The sequence does not keep the view model alive: it ends when the
    /// view model is released, and a consumer that stops iterating (its task cancelled) ends the observation.
    public var states: AsyncStream<State> {
        let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
        let end = StreamEnd(continuation)
        let token = observe { state in end.yield(state) }
        // Termination may be reported on any thread; a token may be cancelled from any of them.
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }
}

/// Finishes a state stream when the last reference goes: the view model's observer list holds it, so releasing
/// the view model finishes the stream.
private final class StreamEnd<State: Sendable>: Sendable {
    private let continuation: AsyncStream<State>.Continuation

    init(_ continuation: AsyncStream<State>.Continuation) { self.continuation = continuation }

    func yield(_ state: State) { continuation.yield(state) }

    deinit { continuation.finish() }
}
