import CourierDomain

extension CourierClient {
    /// Users' names and presence as screens read them: the user cache.
    public var userDirectory: any UserDirectory { users }
}
