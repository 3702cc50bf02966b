import CourierBench

/// `courier-bench`: a thin shell. The benchmarks live in CourierBench, where tests can reach their parts.
@main
enum BenchMain {
    static func main() async {
        await BenchCommand.main()
    }
}
