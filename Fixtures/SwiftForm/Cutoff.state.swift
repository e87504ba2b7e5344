// Change propagation: equal assignments are no change, early cutoff in a three-level chain, the
// @NoCutoff opt-out, and a field whose type is not Equatable.
import ComputedRuntime

public struct CutoffStateSpec: Sendable {
  var items: [Int] = []
  var threshold: Int = 300
  var name: String = ""
  var token: Token = Token()

  /// Level 1: the items over the threshold.
  var filteredArray: [Int] { items.filter { $0 > threshold } }
  /// Level 2: reads only level 1.
  var filteredCount: Int { filteredArray.count }
  /// Level 3: reads only level 2.
  var summary: String { "\(filteredCount) over \(threshold)" }

  /// As `filteredArray`, but every recomputation counts as a change.
  // computedgen: noCutoff
  var uncutArray: [Int] { items.filter { $0 > threshold } }
  var uncutCount: Int { uncutArray.count }

  var greeting: String { "Hello, " + name }
  var tokenID: ObjectIdentifier { ObjectIdentifier(token) }
}
