// The smallest useful state: two fields, a chain of computed values, one field nothing reads.

import ComputedRuntime

struct CounterStateSpec: Equatable {
  var count: Int = 0
  var step: Int = 1
  var label: String = "Counter"

  var doubled: Int { count * 2 }
  var quadrupled: Int { doubled * 2 }
  /// Depends on a field and on a computed.
  var next: Int {
    let base = quadrupled / 4
    return base + step
  }
  var summary: String { "\(label): \(count) (next \(next))" }
}
