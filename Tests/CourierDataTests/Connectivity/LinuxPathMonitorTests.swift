#if os(Linux)
    import CourierDomain
    import Testing

    @testable import CourierData

    /// The monitor on this machine's own network, which these tests do not change (the namespace test in
    /// CourierAppTests changes a network of its own and watches the reports).
    @MainActor
    @Suite("The Linux path monitor on this machine")
    struct LinuxPathMonitorTests {
        @Test("it starts on the path the kernel's state describes, and replays it to an observer at once")
        func startsOnTheKernelsPath() throws {
            // Given a monitor
            let monitor = try LinuxPathMonitor()
            defer { monitor.stop() }

            // When it is observed
            var heard: [NetworkPath] = []
            let token = monitor.observe { heard.append($0) }

            // Then the observer heard the path the kernel's facts give, once
            #expect(monitor.path == KernelPathReader.facts().networkPath)
            #expect(heard == [monitor.path])
            token.cancel()
        }

        @Test("the reader sees the loopback as the kernel lists it: up, loopback, of the loopback hardware type")
        func readerSeesLoopback() throws {
            let loopback = try #require(KernelPathReader.interfaces().first { $0.name == "lo" })
            #expect(loopback.isLoopback)
            #expect(loopback.hardwareType == 772)  // ARPHRD_LOOPBACK: the sockaddr_ll offset is read right
            #expect(!loopback.isWireless)
            #expect(!loopback.isUsable)
        }

        @Test("the reader reads files under /proc to their end, though they report no size")
        func readerReadsProc() throws {
            let routes = try #require(KernelPathReader.contents(of: "/proc/net/route"))
            #expect(routes.hasPrefix("Iface"))
            #expect(KernelPathReader.contents(of: "/proc/net/no-such-file") == nil)
        }
    }
#endif
