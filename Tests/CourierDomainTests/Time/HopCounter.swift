/// An actor to hop to: each call leaves the main actor and comes back.
actor HopCounter {
    private var count = 0
    func hop() { count += 1 }
}
