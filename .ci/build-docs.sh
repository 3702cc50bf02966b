#!/usr/bin/env bash
# Builds the DocC documentation of the five library products with the toolchain alone (no plugin package): symbol
# graphs from `swift package dump-symbol-graph`, then `docc convert` of each product's catalog with its module's
# graphs. Fails on any docs warning (docs/design.md §6: `///` on every public declaration, and zero warnings).
#
# Output: .build-docs/<Module>.doccarchive (git-ignored), one log per module beside it. Set DOCC to use another docc.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each library product, its module and its catalog (in the target's own folder, where SwiftPM leaves it alone).
modules=(CourierDomain CourierStore CourierData CourierHTTP CourierFakes CourierMatrix CourierPresentation)
catalogs=(Domain/CourierDomain.docc Data/Store/CourierStore.docc Data/Library/CourierData.docc Data/HTTP/CourierHTTP.docc
    Data/Fakes/CourierFakes.docc
    Data/Matrix/CourierMatrix.docc Presentation/CourierPresentation.docc)

docc=${DOCC:-$(command -v docc || true)}
if [[ -z "$docc" ]]; then
    # The toolchain ships docc beside swift (on macOS, `xcrun --find docc`).
    swift_bin=$(readlink -f "$(command -v swift)")
    docc=$(dirname "$swift_bin")/docc
    [[ -x "$docc" ]] || docc=$(xcrun --find docc 2>/dev/null || true)
fi
if [[ ! -x "$docc" ]]; then
    echo "build-docs: no docc found (set DOCC to the toolchain's docc)" >&2
    exit 1
fi

out=.build-docs
rm -rf "$out"
mkdir -p "$out"

# dump-symbol-graph builds what it needs, then writes the graphs beside the build's configuration folder
# (.build/<triple>/symbolgraph). Stale graphs of an earlier run are removed first, so only this build's are read.
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
rm -rf "$graphs"
dump_log="$out/dump-symbol-graph.log"
dump_status=0
swift package dump-symbol-graph --minimum-access-level public >"$dump_log" 2>&1 || dump_status=$?
# On Linux it also asks for the test runner's generated modules (<Package>PackageTests,
# <Package>PackageDiscoveredTests), which no build makes, and exits 1 for them: those two failures are expected;
# any other is not.
unexpected=$(grep "error:" "$dump_log" | grep -vE "for '[A-Za-z0-9_]+Package(Discovered)?Tests'" || true)
if [[ -n "$unexpected" ]]; then
    cat "$dump_log" >&2
    echo "build-docs: swift package dump-symbol-graph failed (exit $dump_status)" >&2
    exit 1
fi

warnings=0
for index in "${!modules[@]}"; do
    module=${modules[$index]}
    catalog=${catalogs[$index]}
    if [[ ! -f "$graphs/$module.symbols.json" ]]; then
        cat "$dump_log" >&2
        echo "build-docs: no symbol graph for $module in $graphs" >&2
        exit 1
    fi
    # The module's own graph and those of its extensions to other modules' types (Module@Other.symbols.json).
    module_graphs="$out/symbol-graphs/$module"
    mkdir -p "$module_graphs"
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$module_graphs/" \;

    log="$out/$module.log"
    status=0
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "com.courier.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors >"$log" 2>&1 || status=$?
    count=$(grep -cE "(warning|error):" "$log" || true)
    if [[ $status -ne 0 || $count -ne 0 ]]; then
        cat "$log" >&2
        echo "build-docs: $module: $count docs warnings (exit $status)" >&2
        warnings=$((warnings + count + (count == 0 ? 1 : 0)))
    else
        echo "build-docs: $module: no warnings -> $out/$module.doccarchive"
    fi
done

if [[ $warnings -ne 0 ]]; then
    echo "build-docs: the documentation has warnings (the project keeps zero)" >&2
    exit 1
fi
