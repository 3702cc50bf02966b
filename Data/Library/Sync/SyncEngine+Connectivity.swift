import CourierDomain

extension SyncEngine {
    // MARK: - Connectivity

    func connectivityChanged(_ online: Bool) {
        if online { startLoop() } else { moveEndingLoop { $0.close() } }
        if online { deliverReceipts() }
    }
}
