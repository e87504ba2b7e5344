// Stand-in for Xcode's `XcodeProjectPlugin` module (shipped with Xcode, not with the Swift
// toolchain), for scripts/check-darwin.sh: compiled as a module named `XcodeProjectPlugin` over the
// toolchain's real PackagePlugin, so that `canImport(XcodeProjectPlugin)` is true and the
// `XcodeBuildToolPlugin` conformance of Plugins/ComputedGen type-checks. Never linked or run.
//
// Sources. Apple publishes no DocC reference for this module; the declarations are those of the
// module interface Xcode ships (XcodeProjectPlugin.swiftmodule/arm64-apple-macos.swiftinterface,
// Xcode 14.1, reproduced at https://gist.github.com/ikesyo/f152bf8ee60b1c9bff2e757b01a95fa9):
//   public struct XcodeProject { id: ID (String), displayName: String, directory: Path,
//                                filePaths: PathList, targets: [XcodeTarget] }
//   public struct XcodeTarget { id: ID (String), displayName: String, product: XcodeProduct?,
//                               inputFiles: FileList }
//   public struct XcodePluginContext { xcodeProject: XcodeProject, pluginWorkDirectory: Path,
//                                      func tool(named name: String) throws -> PluginContext.Tool }
//   public protocol XcodeBuildToolPlugin : PackagePlugin.Plugin {
//     func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] }
// plus the URL members Xcode 16 added with SwiftPM 6's URL-based plugin API
// (`XcodeProject.directoryURL`, `XcodePluginContext.pluginWorkDirectoryURL`), declared with the
// availability and deprecations of their PackagePlugin counterparts (`Package.directoryURL`,
// `PluginContext.pluginWorkDirectoryURL`: `@available(_PackageDescription 6.0)`, the `Path` ones
// deprecated in 6.0), as the toolchain's PackagePlugin (lib/swift/pm/PluginAPI) declares them.
// `XcodeTarget.inputFiles` is a PackagePlugin `FileList` of `File`, whose `url` is PackagePlugin's.
// No `Sendable` conformances: the interface declares none.

import Foundation
import PackagePlugin

public struct XcodeProject {
    public typealias ID = String
    public let id: XcodeProject.ID
    public let displayName: String
    @available(_PackageDescription, deprecated: 6.0, renamed: "directoryURL")
    public let directory: Path
    @available(_PackageDescription 6.0)
    public let directoryURL: URL
    public let filePaths: PathList
    public let targets: [XcodeTarget]
}

public struct XcodeTarget {
    public typealias ID = String
    public let id: XcodeTarget.ID
    public let displayName: String
    public let product: XcodeProduct?
    public let inputFiles: FileList
}

// Members the plugin does not use (the product's `kind`) are left out.
public struct XcodeProduct {
    public typealias ID = String
    public let id: XcodeProduct.ID
    public let name: String
}

public struct XcodePluginContext {
    public let xcodeProject: XcodeProject
    @available(_PackageDescription, deprecated: 6.0, renamed: "pluginWorkDirectoryURL")
    public let pluginWorkDirectory: Path
    @available(_PackageDescription 6.0)
    public let pluginWorkDirectoryURL: URL

    public func tool(named name: String) throws -> PluginContext.Tool {
        fatalError("stand-in")
    }
}

public protocol XcodeBuildToolPlugin: Plugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}
