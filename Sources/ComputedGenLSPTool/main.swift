// computedgen-lsp: the language server for .statespec files, over standard input and output.
import ComputedGenLSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        USAGE: computedgen-lsp [--stdio] [--forward-swift[=<sourcekit-lsp>]]

        The ComputedGen language server: serves the Language Server Protocol (3.17) for .statespec
        files over standard input and output. Editors start it and talk to it; --stdio (which some
        clients pass) is accepted and changes nothing.

        --forward-swift   Also serve Swift inside bodies, types and default values (diagnostics as
                          you type, completion, hover, go to definition) through the toolchain's
                          sourcekit-lsp (or the one named) on the generated file. It starts
                          sourcekit-lsp in the spec's package, which prepares the package.
        """)
    exit(0)
}
if arguments.contains("--version") {
    print("\(LanguageServer.name) \(LanguageServer.version)")
    exit(0)
}
let forward = arguments.first { $0 == "--forward-swift" || $0.hasPrefix("--forward-swift=") }
let sourceKitLSP = forward.map { $0.contains("=") ? String($0.drop { $0 != "=" }.dropFirst()) : "sourcekit-lsp" }
exit(StdioTransport.run(LanguageServer(sourceKitLSP: sourceKitLSP)))
