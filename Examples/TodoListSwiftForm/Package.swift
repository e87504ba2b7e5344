// swift-tools-version: 6.1
//
// The todo list of Examples/TodoList with its spec written as plain Swift: Sources/TodoSpecs holds
// Todo.state.swift, which compiles as it is (so Xcode and sourcekit-lsp complete and check it
// before anything is generated), and the ComputedGen plugin, applied to TodoList, generates the
// memoized TodoState from it on every `swift build`.
//
//     swift run --package-path Examples/TodoListSwiftForm

import PackageDescription

let package = Package(
    name: "TodoListSwiftForm",
    platforms: [.macOS(.v14)],
    dependencies: [
        // The repository root. Naming it keeps `package: "ComputedGen"` below valid whatever the
        // folder of the clone is called (a path dependency's identity is its folder's name).
        .package(name: "ComputedGen", path: "../.."),
    ],
    targets: [
        // The spec and the model types it uses, compiled as plain Swift: a Swift error in a body
        // stops the build here, once, at the line and column it was written.
        .target(
            name: "TodoSpecs",
            dependencies: [.product(name: "ComputedRuntime", package: "ComputedGen")]
        ),
        // Gets TodoState, generated from TodoSpecs/Todo.state.swift by the plugin.
        .executableTarget(
            name: "TodoList",
            dependencies: ["TodoSpecs", .product(name: "ComputedRuntime", package: "ComputedGen")],
            plugins: [.plugin(name: "ComputedGen", package: "ComputedGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
