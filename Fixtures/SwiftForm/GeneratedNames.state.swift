// Every identifier the generated code and the runtime API it calls use, as field, computed and
// selector parameter names: none of them may break the generated code (locals and parameters are
// out of the spec's way, runtime and standard-library types are module-qualified).
import Foundation
import ComputedRuntime

public struct GeneratedNamesSpec: Equatable, Hashable, Codable, Sendable {
  var version: Int = 0
  var hasher: Int = 0
  var encoder: Int = 0
  var decoder: Int = 0
  var container: Int = 0
  var lhs: Int = 0
  var rhs: Int = 0
  var newValue: Int = 0
  var path: Int = 0
  var member: Int = 0
  var rest: Int = 0
  var keyPath: Int = 0
  var wrappedValue: Int = 0
  var projectedValue: Int = 0
  var update: Int = 0
  var record: Int = 0
  var inputs: Int = 0
  var compute: Int = 0
  var isEqual: Int = 0
  var isCached: Int = 0
  var hash: Int = 0
  var encode: Int = 0
  var Hasher: Int = 0
  var Encoder: Int = 0
  var Decoder: Int = 0
  var Mirror: Int = 0
  var KeyValuePairs: Int = 0
  var String: Int = 0
  var Bool: Int = 0
  var Substring: Int = 0
  var CodingKey: Int = 0
  var Edge: Int = 0
  @Edge var Memo: Int = 0
  var VersionStamp: Int = 0
  var state: Int = 0
  var StateSelector: Int = 0
  var ParameterizedSelector: Int = 0
  var RecomputationCounter: Int = 0
  var MemberVersioned: Int = 0
  var memberVersion: Int = 0
  @Shared(.inMemory("GeneratedNames.shared")) var shared: Int = 0

  var value: Int { version + hasher + encoder + decoder + container + lhs + rhs }
  var sharedKey: Int { newValue + path + member + rest + keyPath + Memo + shared }
  var arguments: Int { value + sharedKey + state }
  var transform: Int { wrappedValue + projectedValue + update + record + inputs + compute + isEqual }
  var capacity: Int { Hasher + Encoder + Decoder + Mirror + KeyValuePairs + String + Bool + Substring }

  func createSelector(version: Int, hasher: Int, state: Int) -> Int { version + hasher + state + value }
  func createParameterizedSelector(_ container: Int) -> Int { container + capacity }
  func SharedMemo(lhs: Int, rhs: Int, newValue: Int) -> Int { lhs + rhs + newValue + transform }
}
