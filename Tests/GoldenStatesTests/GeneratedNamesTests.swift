import ComputedRuntime
import Foundation
import GoldenStates
import Testing

/// `Fixtures/Specs/GeneratedNames.statespec` names its members after every identifier the
/// generated code uses (`version`, `hasher`, `encoder`, `container`, `Hasher`, `Mirror`, …). That
/// its golden compiles is most of the proof; these check that the names also mean the members.
@Suite("Generated code with every name it uses itself")
struct GeneratedNamesTests {
    @Test("Hashable, Codable and the mirror read the members, not the generated locals")
    func conformancesReadMembers() throws {
        var state = GeneratedNames()
        state.hasher = 3
        state.encoder = 5
        state.container = 7
        state.version = 11
        var other = GeneratedNames()
        other.hasher = 3
        other.encoder = 5
        other.container = 7
        other.version = 11
        #expect(state == other)
        #expect(state.hashValue == other.hashValue)
        other.hasher = 4
        #expect(state != other)

        let data = try JSONEncoder().encode(state)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["hasher"] as? Int == 3)
        #expect(object["container"] as? Int == 7)
        let decoded = try JSONDecoder().decode(GeneratedNames.self, from: data)
        #expect(decoded == state)
        #expect(decoded.computed.value == 3 + 5 + 7 + 11)

        let children = Dictionary(uniqueKeysWithValues: Mirror(reflecting: state).children.map { ($0.label!, $0.value) })
        #expect(children["encoder"] as? Int == 5)
    }

    @Test("computed values and selectors named after generated identifiers work")
    func computedAndSelectors() {
        var state = GeneratedNames()
        state.version = 1
        state.hasher = 2
        #expect(state.computed.value == 3)
        #expect(GeneratedNames.Selectors.createSelector(version: 10, hasher: 20, state: 100)(state) == 133)
        // `state` names the selectors' closure parameter too: the field is still the field.
        state.state = 4
        #expect(GeneratedNames.Selectors.state(state) == 4)
        #expect(state.computed.arguments == state.computed.value + state.computed.sharedKey + 4)
        #expect(GeneratedNames.Selectors.SharedMemo(lhs: 1, rhs: 2, newValue: 3)(state) == 6)
    }
}
