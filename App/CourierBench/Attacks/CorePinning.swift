import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which cores a thread may run on (`sched_setaffinity(2)`, found at run time: the C library declares it only for
/// GNU sources). A thread pinned passes its cores on to the threads and processes it starts afterwards.
enum CorePinning {
    private typealias SetAffinity = @convention(c) (Int32, Int, UnsafeRawPointer) -> Int32

    /// Pins the calling thread to `cores` (0-based); false where the system does not let it (or is not Linux).
    @discardableResult
    static func pin(to cores: [Int]) -> Bool { pin(thread: 0, to: cores) }

    /// Pins every thread this process has now to `cores`; the threads they start inherit it. False where the system
    /// does not let it.
    static func pinProcess(to cores: [Int]) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let threads = tasks.compactMap { Int32($0) }
        return !threads.isEmpty && threads.allSatisfy { pin(thread: $0, to: cores) }
    }

    /// Pins thread `id` (0: the calling one) to `cores`.
    private static func pin(thread id: Int32, to cores: [Int]) -> Bool {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity") else { return false }
            let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
            var mask = [UInt64](repeating: 0, count: 16)  // a cpu_set_t: 1,024 bits
            for core in cores where (0..<1_024).contains(core) { mask[core / 64] |= 1 << UInt64(core % 64) }
            return mask.withUnsafeBytes { setAffinity(id, $0.count, $0.baseAddress!) } == 0
        #else
            return false
        #endif
    }
}
