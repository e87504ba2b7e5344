// What Docs/WhyDidItRecompute.md's Swift snippets assume but do not show, beside the code
// generated from its specs. DocumentationSnippetTests compiles it with every snippet.
import Observation

/// Evaluates a view body as SwiftUI does: inside `withObservationTracking`, so that what it reads
/// through a store is observed until the next change.
func render(_ body: () -> Void) {
    withObservationTracking(body, onChange: {})
}
