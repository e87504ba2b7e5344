// swift-tools-version: 6.1
//
// Proves ComputedRuntime's Combine interop on Linux, where Combine does not exist.
//
// The interop lives in the product (Sources/Runtime/Combine/) and is compiled there only where
// `import Combine` works, so a Linux build of the product never sees it. This package compiles
// the *same files* (Sources/ComputedCombineCompat/ holds symlinks to them) against OpenCombine,
// with COMPUTEDGEN_OPENCOMBINE defined, and tests them. On Apple platforms those files compile
// to nothing here and the tests run against the product's own Combine interop instead
// (OpenCombineShim re-exports Combine there).
//
// The product keeps zero dependencies: OpenCombine is a dependency of this package only.
//
//     swift test --package-path Compat            # run by .ci/run

import PackageDescription

let package = Package(
    name: "ComputedGenCompat",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // The repository root, named so that `package: "ComputedGen"` holds whatever the clone's
        // folder is called.
        .package(name: "ComputedGen", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // Symlinks to ../Sources/Runtime/Combine/*.swift: the product's interop, built here
        // against OpenCombine.
        .target(
            name: "ComputedCombineCompat",
            dependencies: [
                .product(name: "ComputedRuntime", package: "ComputedGen"),
                .product(name: "OpenCombineShim", package: "OpenCombine"),
            ],
            swiftSettings: [.define("COMPUTEDGEN_OPENCOMBINE")]
        ),
        // The seeds' Combine scenarios and the documentation's Combine snippets, with states
        // generated from this target's .statespec files by the product's plugin.
        .testTarget(
            name: "ComputedCombineCompatTests",
            dependencies: [
                "ComputedCombineCompat",
                .product(name: "ComputedRuntime", package: "ComputedGen"),
                .product(name: "OpenCombineShim", package: "OpenCombine"),
            ],
            plugins: [.plugin(name: "ComputedGen", package: "ComputedGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
