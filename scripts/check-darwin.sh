#!/usr/bin/env bash
# Type-checks, on Linux, the product's code that only Apple platforms compile: every
# `#if canImport(Darwin)`, `canImport(Combine)` and `canImport(XcodeProjectPlugin)` branch of
# Sources/Runtime (os_unfair_lock, the vnode dispatch source, KVO of UserDefaults, Darwin's
# `struct stat`, the Combine interop against Combine rather than OpenCombine) and of Plugins/ (the
# `XcodeBuildToolPlugin` conformance). Then the SwiftUI forms of Tests/SwiftUIForms
# (`@Bindable var store: Store<…>`, `$store.query` bound to a `TextField`, `Toggle`, `Picker` and
# `Slider`), type-checked against that runtime, the golden states of Fixtures/Generated and a
# stand-in `SwiftUI` module.
#
# How: the stand-in modules of Tests/DarwinStandIns (Apple's declarations, copied from Apple's
# documentation, headers and module interfaces) are compiled with `swiftc -emit-module` into a
# temporary folder that goes on the import path, so `canImport(Darwin)`, `canImport(Combine)` and
# `canImport(XcodeProjectPlugin)` are true; then the runtime and each plugin are type-checked in
# Swift 6 mode, warnings as errors. The runtime is emitted as a module so the forms can import
# it; their `SwiftUI` is Tests/Helpers/AppleSDKNames/SwiftUI.swift (Apple's declarations, which
# the documentation's form snippets also compile against). Run by .ci/run; exits non-zero on any
# error.
#
# What it cannot see: the real SDK. A Darwin branch that uses a name Glibc has and Darwin lacks
# passes here (Glibc stays visible), and availability (`@available(macOS …)`) is not enforced on a
# Linux target. The macOS workflow (.github/workflows/macos.yml) compiles against the real SDK.
#
#   scripts/check-darwin.sh          SWIFTC=/path/to/swiftc to use another compiler
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
if [[ "$(uname -s)" == Darwin ]]; then
  # The stand-ins re-export Glibc; on macOS the real SDK compiles these branches in every build.
  echo "check-darwin: nothing to do on macOS (swift build compiles the Apple-only branches against the SDK)"
  exit 0
fi

swiftc=${SWIFTC:-$(command -v swiftc)}
toolchain_lib="$(cd "$(dirname "$(readlink -f "$swiftc")")/../lib" && pwd)"
plugin_api="$toolchain_lib/swift/pm/PluginAPI"  # the toolchain's PackagePlugin module
if [[ ! -e "$plugin_api/PackagePlugin.swiftmodule" ]]; then
  echo "check-darwin: no PackagePlugin module in $plugin_api" >&2
  exit 1
fi
standins=Tests/DarwinStandIns
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
modules="$work/modules"
mkdir -p "$modules"
status=0
fail() {
  echo "check-darwin: error: $*" >&2
  status=1
}

# 1. Every platform conditional of the product must be one this check can take: canImport of a
#    module that has a stand-in (the Apple side) or of Glibc/Musl/Bionic (the other side), with
#    the Apple side first, so that a stand-in actually selects the Apple branch.
while IFS= read -r module; do
  case "$module" in
    Darwin | Combine | XcodeProjectPlugin | os | Glibc | Musl | Bionic) ;;
    *) fail "canImport($module) in Sources/Runtime or Plugins has no stand-in in $standins: add one" ;;
  esac
done < <(grep -rhoE 'canImport\([A-Za-z_]+\)' Sources/Runtime Plugins --include='*.swift' | sed -E 's/canImport\((.*)\)/\1/' | sort -u)
while IFS= read -r hit; do
  fail "$hit: a platform condition other than canImport; a Linux type-check cannot take its Apple branch"
done < <(grep -rnE '^[[:space:]]*#(if|elseif)\b.*\b(os|arch|targetEnvironment)\(' Sources/Runtime Plugins --include='*.swift' || true)
runtime_files=()
linux_only=()
while IFS= read -r file; do
  # A file wholly inside `#if canImport(Glibc)` compiles to nothing on Apple platforms (where
  # Glibc does not exist); here Glibc does exist, so leave it out as an Apple build would.
  if [[ "$(head -n 1 "$file")" == "#if canImport(Glibc)" && "$(tail -n 1 "$file")" == "#endif" ]]; then
    linux_only+=("$file")
  else
    runtime_files+=("$file")
  fi
done < <(find Sources/Runtime -name '*.swift' | LC_ALL=C sort)
while IFS= read -r hit; do
  file="${hit%%:*}"
  rest="${hit#*:}"
  line="${rest%%:*}"
  [[ "$line" == 1 ]] && [[ " ${linux_only[*]} " == *" $file "* ]] && continue
  fail "$hit: a Linux-first #if; put the canImport(Darwin) branch first so the check takes it"
done < <(grep -rnE '^[[:space:]]*#if[[:space:]]+[^!]*canImport\((Glibc|Musl|Bionic)\)' Sources/Runtime Plugins --include='*.swift' || true)
if ((status != 0)); then
  exit 1
fi

# 2. The stand-in modules.
emit_module() {
  local name=$1
  shift
  "$swiftc" -emit-module -parse-as-library -swift-version 6 -warnings-as-errors \
    -module-name "$name" -o "$modules/$name.swiftmodule" "$@"
}
emit_module Darwin "$standins/Darwin.swift"
emit_module DispatchStandIn "$standins/DispatchStandIn.swift"
emit_module FoundationStandIn "$standins/FoundationStandIn.swift"
emit_module Combine "$standins/Combine.swift"
emit_module os "$standins/os.swift"
emit_module XcodeProjectPlugin -package-description-version 999.0 -I "$plugin_api" "$standins/XcodeProjectPlugin.swift"
emit_module SwiftUI Tests/Helpers/AppleSDKNames/SwiftUI.swift

# 3. The runtime, as an Apple platform compiles it: Darwin, Combine, and Foundation's KVO and
#    Dispatch's vnode sources (which Apple's Foundation re-exports: imported into every file here).
#    Emitted as a module (type-checking it on the way) for step 5.
printf 'module CComputedAtomics {\n  header "%s"\n  export *\n}\n' \
  "$PWD/Sources/CComputedAtomics/include/CComputedAtomics.h" > "$work/CComputedAtomics.modulemap"
"$swiftc" -emit-module -o "$modules/ComputedRuntime.swiftmodule" -parse-as-library -swift-version 6 \
  -warnings-as-errors -module-name ComputedRuntime \
  -I "$modules" -Xcc -fmodule-map-file="$work/CComputedAtomics.modulemap" \
  -Xfrontend -import-module -Xfrontend DispatchStandIn \
  -Xfrontend -import-module -Xfrontend FoundationStandIn \
  "${runtime_files[@]}" "$standins/RuntimeNSObject.swift" || fail "ComputedRuntime does not type-check against the Apple stand-ins"

# 4. Each plugin, with the package's tools version (it decides which PackagePlugin API exists).
tools_version="$(sed -nE '1s/^\/\/ *swift-tools-version: *([0-9.]+).*/\1/p' Package.swift)"
plugins=()
for dir in Plugins/*/; do
  name="$(basename "$dir")"
  plugins+=("$name")
  "$swiftc" -typecheck -swift-version 6 -warnings-as-errors -package-description-version "$tools_version" \
    -module-name "$name" -I "$plugin_api" -I "$modules" "$dir"*.swift || fail "plugin $name does not type-check against the Apple stand-ins"
done

# 5. SwiftUI forms over stores, with the golden states (one module, as an app's target holds its
#    generated states and its views), then a binding to a computed value, which must not compile.
forms=(Tests/SwiftUIForms/*.swift)
if [[ -e "$modules/ComputedRuntime.swiftmodule" ]]; then
  form_args=(-typecheck -parse-as-library -swift-version 6 -warnings-as-errors -module-name SwiftUIForms -package-name SwiftUIForms
    -I "$modules" -Xcc -fmodule-map-file="$work/CComputedAtomics.modulemap")
  "$swiftc" "${form_args[@]}" Fixtures/Generated/*.swift Fixtures/Support/*.swift "${forms[@]}" \
    || fail "the SwiftUI forms of Tests/SwiftUIForms do not type-check against the runtime and the SwiftUI stand-in"
  printf '%s\n' 'import ComputedRuntime' 'import SwiftUI' \
    'func visibleCount(_ store: Store<TodoState>) -> Binding<Int> { Bindable(store).computed.visibleCount }' \
    > "$work/ComputedBinding.swift"
  expected="$(sed -n 's|^// check-darwin expects: ||p' Tests/SwiftUIForms/StoreForms.swift)"
  if output="$("$swiftc" "${form_args[@]}" Fixtures/Generated/*.swift Fixtures/Support/*.swift "$work/ComputedBinding.swift" 2>&1)"; then
    fail "a binding to a computed value (\$store.computed.visibleCount) compiles; it must not"
  elif [[ -z "$expected" || "$output" != *"$expected"* ]]; then
    fail "a binding to a computed value fails with another message than '$expected':"$'\n'"$output"
  fi
fi

echo "check-darwin: Apple-only branches type-checked against $standins (Darwin, Dispatch, Foundation KVO, Combine, XcodeProjectPlugin):"
grep -rnE '#(if|elseif)\b.*canImport\((Darwin|Combine|XcodeProjectPlugin)\)' Sources/Runtime Plugins --include='*.swift' \
  | sed -E 's/^([^:]*:[0-9]+):[[:space:]]*/  \1  /'
echo "check-darwin: ComputedRuntime (${#runtime_files[@]} files; left out as on Apple platforms: ${linux_only[*]:-none}), plugins: ${plugins[*]}"
echo "check-darwin: SwiftUI forms against the SwiftUI stand-in: ${forms[*]}; \$store.computed.visibleCount rejected"
if ((status != 0)); then
  echo "check-darwin: FAILED ($((SECONDS - start)) s)" >&2
  exit 1
fi
echo "check-darwin: passed ($((SECONDS - start)) s)"
