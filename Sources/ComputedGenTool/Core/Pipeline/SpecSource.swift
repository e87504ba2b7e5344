/// Turns a spec file's bytes into text.
public enum SpecSource {
    /// Decodes `bytes` as UTF-8 (the only encoding a spec may use), or returns an error diagnostic
    /// at the line and column of the first byte that is not valid UTF-8, so that editors and build
    /// logs point at it.
    ///
    /// - Parameters:
    ///   - bytes: The file's content.
    ///   - path: The spec's path as it should appear in the diagnostic.
    public static func decode(_ bytes: [UInt8], path: String) -> Result<String, Diagnostic> {
        guard let offset = firstInvalidOffset(in: bytes) else {
            return .success(String(decoding: bytes, as: UTF8.self))
        }
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = bytes[..<offset].count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let location = SourceLocation(line: line, column: offset - lineStart + 1, offset: offset)
        let hex = "0x" + String(bytes[offset], radix: 16, uppercase: true)
        let message = "the file is not valid UTF-8 text: byte \(hex) here does not start or continue a character; save the spec as UTF-8"
        return .failure(Diagnostic(path: path, at: location, message))
    }

    /// The offset of the first byte of the first invalid UTF-8 sequence, or `nil` when all is valid.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
