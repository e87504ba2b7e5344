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
        USAGE: computedgen-lsp [--stdio] [--forward-swift=<sourcekit-lsp>] [--no-forward-swift]

        The ComputedGen language server: serves the Language Server Protocol (3.17) for .statespec
        files over standard input and output. Editors start it and talk to it; --stdio (which some
        clients pass) is accepted and changes nothing.

        Swift inside bodies, types and default values (diagnostics as you type, completion,
        hover, go to definition) is served through the toolchain's sourcekit-lsp on the
        generated file: the server starts it in the spec's package, which prepares the package.

        --forward-swift=<sourcekit-lsp>   Use this sourcekit-lsp (by default the one on PATH).
        --no-forward-swift                Serve the spec's own features only (no sourcekit-lsp).
        """)
    exit(0)
}
if arguments.contains("--version") {
    print("\(LanguageServer.name) \(LanguageServer.version)")
    exit(0)
}
// Forwarding to sourcekit-lsp is on unless turned off: Swift inside bodies is what users want most
// from the server. `--forward-swift` alone is accepted (it was once needed to turn it on).
let named = arguments.last { $0.hasPrefix("--forward-swift=") }.map { String($0.drop { $0 != "=" }.dropFirst()) }
let sourceKitLSP: String? = arguments.contains("--no-forward-swift") ? nil : named ?? "sourcekit-lsp"
exit(StdioTransport.run(LanguageServer(sourceKitLSP: sourceKitLSP)))
