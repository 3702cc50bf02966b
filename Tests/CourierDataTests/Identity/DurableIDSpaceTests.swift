import CourierData
import CourierDomain
import CourierFakes
import Foundation
import Testing

@Suite("DurableIDSpace")
struct DurableIDSpaceTests {
    private let fileSystem = SimulatedFileSystem()
    private let path = "/data/client/ids"

    init() throws {
        try fileSystem.createDirectory("/data/client")
    }

    private func open(_ namespace: IDNamespace = .seeded(1)) throws -> DurableIDSpace {
        try DurableIDSpace(path: path, fileSystem: fileSystem, makeNamespace: { namespace })
    }

    @Test("a new file takes the given namespace; ids replay on a new file with the same namespace")
    func newFileReplays() throws {
        // Given two new files made with the same namespace
        let first = try open()
        let ids = (0..<3).map { _ in first.nextID() }
        try fileSystem.remove(path)
        let second = try open()
        // Then they hand out the same ids (a replayed run on a new directory prints the same)
        #expect((0..<3).map { _ in second.nextID() } == ids)
        #expect(ids == (0..<3).map { IDNamespace.seeded(1).id(at: $0) })
    }

    @Test("reopening after a kill never repeats an id: the used block was reserved on disk before its first id")
    func reopeningSkipsTheReservedBlock() throws {
        // Given ids taken from a space, which is then dropped without any further save (a kill)
        let first = try open()
        let taken = (0..<5).map { _ in first.nextID() }
        // When the file is opened again, even by a launch that would bring another namespace
        let second = try open(.seeded(99))
        let next = (0..<5).map { _ in second.nextID() }
        // Then it keeps the stored namespace and continues after the whole reserved block
        #expect(second.namespace == IDNamespace.seeded(1))
        #expect(Set(taken).isDisjoint(with: next))
        #expect(next[0] == IDNamespace.seeded(1).id(at: DurableIDSpace.blockSize))
    }

    @Test("a space crosses block boundaries without repeating, and each block is reserved durably")
    func crossesBlocks() throws {
        let space = try open()
        let count = Int(DurableIDSpace.blockSize) * 2 + 3
        let ids = (0..<count).map { _ in space.nextID() }
        #expect(Set(ids).count == count)
        let reopened = try open()
        #expect(reopened.nextID() == IDNamespace.seeded(1).id(at: 3 * DurableIDSpace.blockSize))
    }

    @Test("a damaged file is replaced by a namespace from the system's random source, so nothing can repeat")
    func damagedFileGetsARandomNamespace() throws {
        // Given a space whose file is then damaged
        let first = try open()
        let taken = (0..<3).map { _ in first.nextID() }
        let handle = try fileSystem.open(path, create: false)
        try fileSystem.write(Data([0xFF, 0xFF]), at: 8, to: handle)
        try fileSystem.sync(handle)
        fileSystem.close(handle)
        // When it is opened with the seeded namespace it was made with
        let second = try open()
        // Then it starts a new namespace, not the seeded one, and its ids are new
        #expect(second.namespace != IDNamespace.seeded(1))
        #expect(Set(taken).isDisjoint(with: (0..<3).map { _ in second.nextID() }))
    }
}
