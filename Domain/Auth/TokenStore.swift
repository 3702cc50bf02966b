/// Where the client keeps its sign-in between launches. An app on Apple platforms replaces the file with the Keychain.
public protocol TokenStore: Sendable {
    /// The sign-in kept, if any.
    func load() throws -> SignInToken?
    /// Keeps `token`, replacing any other.
    func save(_ token: SignInToken) throws
    /// Forgets the sign-in kept.
    func erase() throws
}
