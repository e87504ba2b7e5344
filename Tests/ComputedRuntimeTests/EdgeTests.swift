import ConcurrencyTestSupport
import Foundation
import Testing
@testable import ComputedRuntime

private struct NotEquatable: Sendable {
    var number: Int
}

private final class Reference: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

private struct Profile: Codable, Equatable {
    @Edge var name: String = "anon"
    @Edge(onSet: { $0 = min($0, 99) }) var badge: Int = 0
    @Edge var tags: [String] = []
}

@Suite("Edge")
struct EdgeTests {
    @Test("every set and modify takes a new, increasing stamp")
    func versions() {
        var edge = Edge(wrappedValue: 1)
        let v0 = edge.version
        edge.wrappedValue = 1  // same value: still a write
        let v1 = edge.version
        edge.wrappedValue += 1
        let v2 = edge.version
        #expect(v0.rawValue < v1.rawValue)  // increasing on one thread
        #expect(v1.rawValue < v2.rawValue)
        #expect(edge.wrappedValue == 2)
        let copy = edge
        #expect(copy.version == edge.version)
        #expect(edge.projectedValue.version == edge.version)
    }

    @Test("property wrapper syntax exposes $x.version")
    func propertyWrapper() {
        var profile = Profile()
        let before = profile.$name.version
        profile.name = "Ada"
        #expect(profile.name == "Ada")
        #expect(profile.$name.version != before)
        let badgeBefore = profile.$badge.version
        profile.badge = 500
        #expect(profile.badge == 99)
        #expect(profile.$badge.version != badgeBefore)
    }

    @Test("modify mutates in place without copying the value")
    func modifyInPlace() {
        var edge = Edge(wrappedValue: [Int]())
        edge.wrappedValue.reserveCapacity(64)
        let address = edge.wrappedValue.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let before = edge.version
        for i in 0..<32 {
            edge.wrappedValue.append(i)
        }
        let after = edge.wrappedValue.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(address == after, "the array buffer was copied by the accessor")
        #expect(edge.wrappedValue == Array(0..<32))
        #expect(edge.version != before)
    }

    @Test("onSet runs on the initial value and on every write")
    func onSet() {
        var edge = Edge(wrappedValue: 150, middleware: .onSet { $0 = min($0, 99) })
        #expect(edge.wrappedValue == 99)
        edge.wrappedValue = 5
        #expect(edge.wrappedValue == 5)
        edge.wrappedValue = 1_000
        #expect(edge.wrappedValue == 99)
        edge.wrappedValue += 10  // modify: 109 → 99
        #expect(edge.wrappedValue == 99)
    }

    @Test("composed middleware runs in order")
    func middlewareOrder() {
        let doubleThenIncrement = Edge<Int>.Middleware([.onSet { $0 *= 2 }, .onSet { $0 += 1 }])
        let incrementThenDouble = Edge<Int>.Middleware([.onSet { $0 += 1 }, .onSet { $0 *= 2 }])
        var a = Edge(wrappedValue: 3, middleware: doubleThenIncrement)
        var b = Edge(wrappedValue: 3, middleware: incrementThenDouble)
        #expect(a.wrappedValue == 7)
        #expect(b.wrappedValue == 8)
        a.wrappedValue = 5
        b.wrappedValue = 5
        #expect(a.wrappedValue == 11)
        #expect(b.wrappedValue == 12)
        let log = Collected<[String]>([])
        let logging = Edge<Int>.Middleware([
            .onSet { _ in log.withLock { $0.append("first") } },
            Edge<Int>.Middleware([
                .onSet { _ in log.withLock { $0.append("second") } },
                .onSet { _ in log.withLock { $0.append("third") } },
            ]),
        ])
        _ = Edge(wrappedValue: 0, middleware: logging)
        #expect(log.value == ["first", "second", "third"])
        let empty = Edge(wrappedValue: 4, middleware: Edge<Int>.Middleware([]))
        #expect(empty.wrappedValue == 4)
    }

    @Test("assert middleware checks in debug builds only and never changes the value")
    func assertMiddleware() {
        let checks = RecomputationCounter()
        var edge = Edge(
            wrappedValue: 1,
            middleware: .assert({ value in
                checks.increment()
                return value >= 0
            }, "must not be negative")
        )
        edge.wrappedValue = 7
        edge.wrappedValue += 1
        #expect(edge.wrappedValue == 8)
        #if DEBUG
        #expect(checks.count == 3)  // initial value, set, modify
        #else
        #expect(checks.count == 0)
        #endif
        var shorthand = Edge(wrappedValue: 2, assert: { $0 >= 0 })
        shorthand.wrappedValue = 3
        #expect(shorthand.wrappedValue == 3)
    }

    #if DEBUG && compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
    @Test("a failing assert middleware stops the program in debug builds")
    func failingAssert() async {
        await #expect(processExitsWith: .failure) {
            var edge = Edge(wrappedValue: 1, middleware: .assert({ $0 >= 0 }, "negative"))
            edge.wrappedValue = -1
        }
    }
    #endif

    @Test("Equatable values: equal stamps or equal values are equal")
    func equalityEquatable() {
        let a = Edge(wrappedValue: 1)
        let b = Edge(wrappedValue: 1)
        let c = Edge(wrappedValue: 2)
        #expect(a.version != b.version)
        #expect(a == b)
        #expect(a != c)
        var d = a
        #expect(d == a)
        d.wrappedValue = 2
        #expect(d == c)
        #expect(d != a)
        let optionalA = Edge<Int?>(wrappedValue: nil)
        let optionalB = Edge<Int?>(wrappedValue: nil)
        #expect(optionalA == optionalB)
    }

    @Test("non-Equatable values: equal only by stamp (documented false negative)")
    func equalityNonEquatable() {
        let a = Edge(wrappedValue: NotEquatable(number: 1))
        let b = Edge(wrappedValue: NotEquatable(number: 1))
        #expect(a != b)  // same contents, different writes
        var copy = a
        #expect(copy == a)
        copy.wrappedValue = NotEquatable(number: 1)
        #expect(copy != a)
        let reference = Reference(1)
        let r1 = Edge(wrappedValue: reference)
        let r2 = r1
        #expect(r1 == r2)
        #expect(r1 != Edge(wrappedValue: reference))
    }

    @Test("Hashable: equal edges hash equally")
    func hashing() {
        let a = Edge(wrappedValue: "x")
        let b = Edge(wrappedValue: "x")
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, Edge(wrappedValue: "y")]).count == 2)
    }

    @Test("Codable round trip encodes the value only and takes a new stamp on decode")
    func codable() throws {
        var profile = Profile()
        profile.name = "Grace"
        profile.badge = 12
        profile.tags = ["a", "b"]
        let data = try JSONEncoder().encode(profile)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains("\"name\":\"Grace\""))
        #expect(json.contains("\"badge\":12"))
        #expect(!json.contains("version"))
        let decoded = try JSONDecoder().decode(Profile.self, from: data)
        #expect(decoded.name == "Grace")
        #expect(decoded.badge == 12)
        #expect(decoded.tags == ["a", "b"])
        #expect(decoded.$name.version != profile.$name.version)
        #expect(decoded == profile)  // different stamps, equal values

        let single = try JSONDecoder().decode(Edge<Int>.self, from: Data("42".utf8))
        #expect(single.wrappedValue == 42)
        #expect(String(data: try JSONEncoder().encode(single), encoding: .utf8) == "42")
    }

    @Test("Edge is Sendable when its value is")
    func sendable() async {
        let edge = Edge(wrappedValue: [1, 2, 3])
        let version = edge.version
        let seen = await Task.detached { edge.version }.value
        #expect(seen == version)
    }
}
