/// The id of a JSON-RPC request: a number or a string.
public enum RequestID: Hashable, Sendable {
    case int(Int)
    case string(String)

    /// The id as JSON.
    public var json: JSONValue {
        switch self {
        case .int(let value): .int(value)
        case .string(let value): .string(value)
        }
    }

    /// The id in `json`, or `nil` when it is neither a whole number nor a string.
    public init?(json: JSONValue) {
        if let value = json.intValue {
            self = .int(value)
        } else if let value = json.stringValue {
            self = .string(value)
        } else {
            return nil
        }
    }
}

/// A JSON-RPC 2.0 error, as a response carries it.
public struct ResponseError: Error, Hashable, Sendable {
    /// The error code (JSON-RPC's, or the LSP's).
    public var code: Int
    /// A short description.
    public var message: String

    /// Creates an error.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// The content could not be parsed as JSON (`-32700`).
    public static func parseError(_ message: String) -> ResponseError { ResponseError(code: -32700, message: message) }
    /// The JSON is not a valid request object (`-32600`).
    public static func invalidRequest(_ message: String) -> ResponseError { ResponseError(code: -32600, message: message) }
    /// The method does not exist or is not served (`-32601`).
    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: -32601, message: "method not found: \(method)")
    }
    /// The parameters are not what the method takes (`-32602`).
    public static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: -32602, message: message) }
    /// A request came before `initialize` (`-32002`, the LSP's ServerNotInitialized).
    public static let serverNotInitialized = ResponseError(code: -32002, message: "the server has not been initialized")
    /// A request came after `shutdown` (`-32600`, as LSP 3.17 asks).
    public static let shutDown = ResponseError(code: -32600, message: "the server is shutting down")
    /// The request is valid but cannot be carried out, e.g. a rename at a position that names
    /// no member (`-32803`, the LSP's RequestFailed).
    public static func requestFailed(_ message: String) -> ResponseError { ResponseError(code: -32803, message: message) }
    /// The client cancelled the request (`$/cancelRequest`) before it was answered (`-32800`,
    /// the LSP's RequestCancelled).
    public static let requestCancelled = ResponseError(code: -32800, message: "the request was cancelled")

    /// The error as JSON.
    public var json: JSONValue { ["code": .int(code), "message": .string(message)] }
}

/// A message received from the client.
public enum IncomingMessage: Hashable, Sendable {
    /// A request, which gets exactly one response.
    case request(id: RequestID, method: String, params: JSONValue)
    /// A notification, which gets none.
    case notification(method: String, params: JSONValue)
    /// A response to a request of the server's (the server sends none, so these are ignored).
    case response(id: RequestID?)

    /// Reads a message from its JSON, or returns the error to answer with and the id to answer
    /// to (`nil`, sent as `null`, when the id could not be read).
    public static func decode(_ json: JSONValue) -> Result<IncomingMessage, InvalidMessage> {
        guard let object = json.objectValue else {
            return .failure(InvalidMessage(id: nil, error: .invalidRequest("a message must be a JSON object")))
        }
        let rawID = object["id"]
        let id = rawID.flatMap(RequestID.init(json:))
        if let rawID, id == nil, rawID != .null {
            return .failure(InvalidMessage(id: nil, error: .invalidRequest("'id' must be a number or a string")))
        }
        guard object["jsonrpc"] == "2.0" else {
            return .failure(InvalidMessage(id: id, error: .invalidRequest("'jsonrpc' must be \"2.0\"")))
        }
        guard let methodValue = object["method"] else {
            if object["result"] != nil || object["error"] != nil { return .success(.response(id: id)) }
            return .failure(InvalidMessage(id: id, error: .invalidRequest("a message needs a 'method'")))
        }
        guard let method = methodValue.stringValue else {
            return .failure(InvalidMessage(id: id, error: .invalidRequest("'method' must be a string")))
        }
        let params = object["params"] ?? .null
        if let id { return .success(.request(id: id, method: method, params: params)) }
        return .success(.notification(method: method, params: params))
    }
}

/// A message that is JSON but not a valid JSON-RPC message: the error to answer with.
public struct InvalidMessage: Error, Hashable, Sendable {
    /// The id to answer to, when one could be read.
    public var id: RequestID?
    /// The error.
    public var error: ResponseError
}

/// Messages the server writes.
public enum OutgoingMessage {
    /// A successful response.
    public static func response(id: RequestID, result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id.json, "result": result]
    }

    /// An error response; `id` is `nil` (sent as `null`) when the request's id is unknown.
    public static func error(id: RequestID?, _ error: ResponseError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    /// A notification.
    public static func notification(method: String, params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }
}
