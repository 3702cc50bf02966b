import CourierDomain

extension DurableOutbox {
    // MARK: - Connectivity

    package func connectivityChanged(_ online: Bool) {
        defer { wasOnline = online }
        guard online, !wasOnline else { return }
        resumeRequestedSends()
        startAutomaticPass()
    }
}
