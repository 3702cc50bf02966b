import CourierDomain
import CourierStore
import Foundation

/// A `TokenStore` in a file of its own (`0600`: its user's alone), replaced atomically and synced on every save, so
/// a crash leaves the old sign-in or the new one, never half of either. An app on Apple platforms gives the client a
/// Keychain-backed `TokenStore` instead; this one is for Linux, tools and tests.
public final class FileTokenStore: TokenStore, @unchecked Sendable {
    /// The file.
    public let path: String
    private let fileSystem: any FileSystem
    private let lock = NSLock()

    /// A store in the file at `path` (created on the first save, with its directory).
    public init(path: String, fileSystem: any FileSystem = PosixFileSystem()) {
        self.path = path
        self.fileSystem = fileSystem
    }

    /// The sign-in kept; nil when there is none. Throws `StoreError.incompatible` for a file that is not one.
    public func load() throws -> SignInToken? {
        try lock.withLock {
            guard fileSystem.exists(path) else { return nil }
            let handle = try fileSystem.open(path, create: false)
            defer { fileSystem.close(handle) }
            let data = try fileSystem.readAll(handle)
            guard let token = try? JSONDecoder().decode(SignInToken.self, from: data) else {
                throw StoreError.incompatible("\(path) does not hold a sign-in")
            }
            return token
        }
    }

    /// Keeps `token`, durably, replacing any other.
    public func save(_ token: SignInToken) throws {
        let data = try JSONEncoder().encode(token)
        try lock.withLock {
            try fileSystem.createDirectory((path as NSString).deletingLastPathComponent)
            try fileSystem.replaceFile(at: path, with: data)
        }
    }

    /// Forgets the sign-in: the file is removed, durably.
    public func erase() throws {
        try lock.withLock {
            guard fileSystem.exists(path) else { return }
            try fileSystem.remove(path)
            try fileSystem.syncDirectory((path as NSString).deletingLastPathComponent)
        }
    }
}
