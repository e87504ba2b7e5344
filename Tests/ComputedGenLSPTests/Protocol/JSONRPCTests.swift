import Testing

@testable import ComputedGenLSP

@Suite("JSON-RPC 2.0 messages")
struct JSONRPCTests {
    @Test("requests, notifications and responses are told apart")
    func kinds() {
        #expect(IncomingMessage.decode(["jsonrpc": "2.0", "id": 3, "method": "m", "params": [1]]) == .success(.request(id: .int(3), method: "m", params: [1])))
        #expect(IncomingMessage.decode(["jsonrpc": "2.0", "id": "a", "method": "m"]) == .success(.request(id: .string("a"), method: "m", params: .null)))
        #expect(IncomingMessage.decode(["jsonrpc": "2.0", "method": "n"]) == .success(.notification(method: "n", params: .null)))
        #expect(IncomingMessage.decode(["jsonrpc": "2.0", "id": 1, "result": .null]) == .success(.response(id: .int(1))))
    }

    @Test("invalid messages get InvalidRequest, with the id when it could be read", arguments: [
        (JSONValue.array([]), RequestID?.none),
        (JSONValue(dictionaryLiteral: ("jsonrpc", "1.0"), ("id", 4), ("method", "m")), RequestID.int(4)),
        (JSONValue(dictionaryLiteral: ("jsonrpc", "2.0"), ("id", 4)), RequestID.int(4)),
        (JSONValue(dictionaryLiteral: ("jsonrpc", "2.0"), ("id", 4), ("method", 7)), RequestID.int(4)),
        (JSONValue(dictionaryLiteral: ("jsonrpc", "2.0"), ("id", [1]), ("method", "m")), RequestID?.none),
    ])
    func invalid(_ json: JSONValue, _ id: RequestID?) {
        guard case .failure(let invalid) = IncomingMessage.decode(json) else {
            Issue.record("\(json) decoded")
            return
        }
        #expect(invalid.id == id)
        #expect(invalid.error.code == -32600)
    }

    @Test("responses and errors carry jsonrpc, id and result or error")
    func outgoing() {
        #expect(OutgoingMessage.response(id: .int(1), result: .null).serialized() == #"{"id":1,"jsonrpc":"2.0","result":null}"#)
        #expect(OutgoingMessage.error(id: nil, .methodNotFound("x")).serialized()
            == #"{"error":{"code":-32601,"message":"method not found: x"},"id":null,"jsonrpc":"2.0"}"#)
    }
}
