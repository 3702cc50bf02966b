import CourierData
import CourierDomain
import Foundation

/// A sign-in as the server keeps it: the SHA-256 of its token (never the token), whose it is, and until when.
struct SessionGrant: Equatable, Sendable {
    /// The token's digest.
    var tokenHash: [UInt8]
    /// The signed-in user.
    var user: UserID
    /// When the token stops working.
    var expiresAt: Date
}

/// The server's sessions on a checksummed record log (`sessions.log`), synced before a sign-in or a sign-out is
/// answered, so a restart (or a SIGKILL) signs no one out and brings no revoked token back. Each record is a grant or
/// the end of one; opening replays them and, when ended and expired grants outnumber live ones, compacts the log to
/// the live grants alone.
final class SessionJournal {
    private enum Kind: UInt8 {
        case granted = 1
        case ended = 2
    }
    private static let version: UInt8 = 1

    private let storage: RecordLogStorage
    private let logger: Logger

    /// Opens (or creates) the journal at `path`.
    init(path: String, fileSystem: any FileSystem, logger: Logger) throws {
        storage = try RecordLogStorage(path: path, fileSystem: fileSystem, logger: logger)
        self.logger = logger
    }

    /// The grants still live at `now`, replayed from the file (once: call at start). Compacts the file when most of
    /// it is dead.
    func liveGrants(at now: Date) throws -> [[UInt8]: SessionGrant] {
        var grants: [[UInt8]: SessionGrant] = [:]
        let records = try storage.loadRecords()
        for record in records {
            do {
                try BinaryRecordReader.reading(record) { reader in
                    _ = try reader.version(from: Self.version, through: Self.version)
                    switch try reader.enumeration(Kind.self) {
                    case .granted:
                        let hash = Array(Data(hexDigits: try reader.string()) ?? Data())
                        let user = UserID(try reader.string())
                        let expiresAt = Date(timeIntervalSinceReferenceDate: try reader.double())
                        guard hash.count == 32 else { throw SessionRecordError() }
                        grants[hash] = SessionGrant(tokenHash: hash, user: user, expiresAt: expiresAt)
                    case .ended:
                        let hash = Array(Data(hexDigits: try reader.string()) ?? Data())
                        grants[hash] = nil
                    }
                }
            } catch {
                logger.log(.warning, "sessions journal: skipped an unreadable record (\(error))")
            }
        }
        grants = grants.filter { $0.value.expiresAt > now }
        if records.count > 2 * grants.count + 64 {
            try storage.compact(keeping: grants.values.sorted { $0.expiresAt < $1.expiresAt }.map(Self.body(granting:)))
        }
        return grants
    }

    /// Records a grant, synced.
    func grant(_ grant: SessionGrant) throws { try storage.append([Self.body(granting: grant)]) }

    /// Records the end of the grant with this token digest (revoked, or expired by hand), synced.
    func end(_ tokenHash: [UInt8]) throws {
        var writer = BinaryRecordWriter()
        writer.byte(Self.version)
        writer.byte(Kind.ended.rawValue)
        writer.string(SHA256.hexString(tokenHash))
        try storage.append([writer.data])
    }

    /// Closes the file.
    func close() { storage.close() }

    private static func body(granting grant: SessionGrant) -> Data {
        var writer = BinaryRecordWriter()
        writer.byte(version)
        writer.byte(Kind.granted.rawValue)
        writer.string(SHA256.hexString(grant.tokenHash))
        writer.string(grant.user.rawValue)
        writer.double(grant.expiresAt.timeIntervalSinceReferenceDate)
        return writer.data
    }
}

/// A session record whose fields cannot be taken.
private struct SessionRecordError: Error {}

extension Data {
    /// The bytes written as `hex` (an even number of hex digits); nil for anything else.
    init?(hexDigits hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }
}
