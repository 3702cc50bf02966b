import Foundation

// courier-bench: performance measurements that the tests deliberately leave out (docs/benchmarks.md).
// Each subcommand registers one line here; run one with `swift run -c release courier-bench <name>`.

let subcommands: [(name: String, summary: String, run: () throws -> Void)] = [
    ("store", "durable enqueue, enqueue vs the seeds' JSON rewrite, opening 10,000", { try StoreBenchmark().run() }),
]

@MainActor func usage() -> String {
    let lines = subcommands.map { "  \($0.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \($0.summary)" }
    return (["usage: courier-bench <subcommand>", "", "subcommands:"] + lines).joined(separator: "\n") + "\n"
}

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let subcommand = subcommands.first(where: { $0.name == name }) else {
    FileHandle.standardError.write(Data(usage().utf8))
    exit(2)
}
do {
    try subcommand.run()
} catch {
    FileHandle.standardError.write(Data("courier-bench \(name): \(error)\n".utf8))
    exit(1)
}
