// swift-tools-version: 6.1
//
// ComputedGen's benchmarks, in their own package so that the product keeps zero dependencies.
// The state types come from the .statespec files of the benchmark target, through the ComputedGen
// build-tool plugin, exactly as users get them.
//
//     Benchmarks/run.sh                                          # the ratio table, Docs/Performance.md
//     swift package --package-path Benchmarks benchmark          # package-benchmark's own output

import PackageDescription

let package = Package(
    name: "ComputedGenBenchmarks",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // The repository root. Naming it keeps `package: "ComputedGen"` valid whatever the clone's
        // folder is called (a path dependency's identity is its folder's name).
        .package(name: "ComputedGen", path: ".."),
        // Only the malloc interposer trait: the default traits also pull in a Swift runtime
        // interposer on Linux with Swift 6.3, which the benchmarks do not need.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The cross-module layout: public states (through the plugin) and their hand-written
        // baselines in a library, read from the benchmark executable, as an app's feature modules
        // read its model module.
        .target(
            name: "BenchModel",
            dependencies: [.product(name: "ComputedRuntime", package: "ComputedGen")],
            path: "Benchmarks/BenchModel",
            plugins: [.plugin(name: "ComputedGen", package: "ComputedGen")]
        ),
        .executableTarget(
            name: "ComputedGenBenchmarks",
            dependencies: [
                "BenchModel",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ComputedRuntime", package: "ComputedGen"),
            ],
            path: "Benchmarks/ComputedGenBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
                .plugin(name: "ComputedGen", package: "ComputedGen"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
