// swift-tools-version: 6.1
//
// ComputedGen: generated, memoized derived state for Swift.
//
// The product keeps zero package dependencies: everything here builds with the toolchain alone.
// Benchmarks live in their own package (Benchmarks/Package.swift).

import PackageDescription

let package = Package(
    name: "ComputedGen",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "ComputedRuntime", targets: ["ComputedRuntime"]),
        .executable(name: "ComputedGenTool", targets: ["ComputedGenTool"]),
        // The language server for .statespec files (editors start it; the build never does).
        .executable(name: "computedgen-lsp", targets: ["ComputedGenLSPTool"]),
        .plugin(name: "ComputedGen", targets: ["ComputedGen"]),
        .plugin(name: "GenerateStateCode", targets: ["GenerateStateCode"]),
    ],
    targets: [
        // The few atomics the runtime's hot path needs, as C11 atomics (Synchronization needs macOS 15).
        .target(
            name: "CComputedAtomics",
            path: "Sources/CComputedAtomics"
        ),
        // The runtime library that generated code calls.
        .target(
            name: "ComputedRuntime",
            dependencies: ["CComputedAtomics"],
            path: "Sources/Runtime"
        ),
        // The generator pipeline: lex/parse → model → check → emit.
        .target(
            name: "ComputedGenCore",
            path: "Sources/ComputedGenTool/Core"
        ),
        // The command-line front end of the generator (thin).
        .executableTarget(
            name: "ComputedGenTool",
            dependencies: ["ComputedGenCore"],
            path: "Sources/ComputedGenTool/CLI"
        ),
        // The language server: the generator's parser and checks behind the Language Server
        // Protocol. Not a dependency of ComputedGenTool: the plugin builds that tool in every user's
        // clean build, and the server must not add to it.
        .target(
            name: "ComputedGenLSP",
            dependencies: ["ComputedGenCore"],
            path: "Sources/ComputedGenLSP"
        ),
        .executableTarget(
            name: "ComputedGenLSPTool",
            dependencies: ["ComputedGenLSP"],
            path: "Sources/ComputedGenLSPTool"
        ),
        // The build-tool plugin: one build command per .statespec of the target it is applied to.
        .plugin(
            name: "ComputedGen",
            capability: .buildTool(),
            dependencies: ["ComputedGenTool"],
            path: "Plugins/ComputedGen"
        ),
        // `swift package generate-state-code`: writes the generated files into the source tree.
        .plugin(
            name: "GenerateStateCode",
            capability: .command(
                intent: .custom(
                    verb: "generate-state-code",
                    description: "Generate Swift from the .statespec files into each target's GeneratedSources folder"
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the Swift generated from .statespec files into GeneratedSources")
                ]
            ),
            dependencies: ["ComputedGenTool"],
            path: "Plugins/GenerateStateCode"
        ),
        // The golden generated files of Fixtures/, compiled as they are (as swift-openapi-generator
        // compiles its reference sources), so a golden that does not build fails the build.
        .target(
            name: "GoldenStates",
            dependencies: ["ComputedRuntime"],
            path: "Fixtures",
            exclude: ["Specs", "Invalid", "SwiftForm", "SwiftFormSupport"],
            sources: ["Generated", "Support"]
        ),
        // The fixture specs in the Swift form, compiled as the plain Swift they are, before (and
        // without) anything generated from them: a fixture that does not compile fails the build.
        .target(
            name: "SwiftFormFixtures",
            dependencies: ["ComputedRuntime", "GoldenStates"],
            path: "Fixtures",
            exclude: ["Specs", "Invalid", "Generated", "Support"],
            sources: ["SwiftForm", "SwiftFormSupport"]
        ),
        .testTarget(
            name: "GoldenStatesTests",
            dependencies: ["GoldenStates", "ComputedRuntime", "ConcurrencyTestSupport"]
        ),
        .testTarget(
            name: "ComputedRuntimeTests",
            dependencies: ["ComputedRuntime", "ConcurrencyTestSupport"]
        ),
        // Threads for the concurrency tests of both test targets above (threads that start
        // together, a dedicated thread for steps that must share one thread's stamp block, a wait
        // on the calling thread), and the seeded random generator of their property tests.
        .target(
            name: "ConcurrencyTestSupport",
            path: "Tests/Helpers/ConcurrencyTestSupport"
        ),
        // A child process for the file-storage fault tests: writes and saves in a loop until it
        // is killed (ComputedRuntimeTests/SharedFaultTests).
        .executableTarget(
            name: "SharedFaultWriter",
            dependencies: ["ComputedRuntime"],
            path: "Tests/Helpers/SharedFaultWriter"
        ),
        // Public names that Apple's SDKs and popular state libraries declare and ComputedRuntime
        // declares too (`Selector`, `Edge`, `Shared`, `Store`, …): tests import it beside the
        // runtime to prove generated code and documented snippets compile in an app's files.
        .target(
            name: "AppleSDKNames",
            path: "Tests/Helpers/AppleSDKNames"
        ),
        .target(
            name: "ClashingNames",
            dependencies: ["AppleSDKNames"],
            path: "Tests/Helpers/ClashingNames"
        ),
        .testTarget(
            name: "ComputedGenCoreTests",
            dependencies: ["ComputedGenCore", "ClashingNames", "ConcurrencyTestSupport"]
        ),
        // The language server's protocol layer and features, and the built server driven over
        // pipes as an editor drives it (the test target depends on the executable so it is built).
        .testTarget(
            name: "ComputedGenLSPTests",
            dependencies: ["ComputedGenLSP", "ComputedGenLSPTool", "FakeSourceKitLSP"]
        ),
        // A stand-in for sourcekit-lsp that answers at once or after a delay, for the tests of
        // the server's Swift forwarding (the real one takes seconds to prepare a package).
        .executableTarget(
            name: "FakeSourceKitLSP",
            dependencies: ["ComputedGenLSP"],
            path: "Tests/FakeSourceKitLSP"
        ),
        // Specs written as plain Swift (.state.swift), compiled here as they are; the plugin applied
        // to PluginEndToEndTests generates their memoized states there, as in the layout the
        // README recommends (specs in a target of their own, so each Swift error is reported once).
        .target(
            name: "SwiftFormSpecs",
            dependencies: ["ComputedRuntime"],
            path: "Tests/Helpers/SwiftFormSpecs"
        ),
        // The generated API as users get it: this target's own .statespec files, and the
        // Swift-form specs of SwiftFormSpecs, built by the plugin.
        .testTarget(
            name: "PluginEndToEndTests",
            dependencies: ["ComputedRuntime", "GoldenStates", "SwiftFormSpecs"],
            plugins: ["ComputedGen"]
        ),
        // Builds Examples/TodoList (and a command-plugin fixture) from a copy of the repository with
        // `swift build`, as a user would. A deep run: only with COMPUTEDGEN_DEEP_TESTS=1 (CI sets it).
        .testTarget(
            name: "ExamplesTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
