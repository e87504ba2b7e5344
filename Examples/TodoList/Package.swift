// swift-tools-version: 6.1
//
// A todo list built exactly as a ComputedGen user builds one: the ComputedGen build-tool plugin
// turns Sources/TodoList/Todo.statespec into Swift on every `swift build`.
//
//     swift run --package-path Examples/TodoList

import PackageDescription

let package = Package(
    name: "TodoList",
    platforms: [.macOS(.v14)],
    dependencies: [
        // The repository root. Naming it keeps `package: "ComputedGen"` below valid whatever the
        // folder of the clone is called (a path dependency's identity is its folder's name).
        .package(name: "ComputedGen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TodoList",
            dependencies: [.product(name: "ComputedRuntime", package: "ComputedGen")],
            plugins: [.plugin(name: "ComputedGen", package: "ComputedGen")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
