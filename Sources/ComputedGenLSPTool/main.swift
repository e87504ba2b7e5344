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
        USAGE: computedgen-lsp [--stdio]

        The ComputedGen language server: serves the Language Server Protocol (3.17) for .statespec
        files over standard input and output. Editors start it and talk to it; --stdio (which some
        clients pass) is accepted and changes nothing.
        """)
    exit(0)
}
if arguments.contains("--version") {
    print("\(LanguageServer.name) \(LanguageServer.version)")
    exit(0)
}
exit(StdioTransport.run(LanguageServer()))
