#!/usr/bin/env bash
# test_install.sh - `cmake --install` puts what a user reads and copies in
# place (the binary and the parts it loads, the man page, the schemas, every ruleset's tables,
# example scenarios, maps and sheets, the notation guides and the docs),
# and a message about built-in tables names their installed copy, not a
# path of the source tree (issue 16, item 13), nor one where nothing is.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

command -v cmake >/dev/null || fail "cmake is not installed (scripts/deps installs it)"
P=$TMP/prefix
cmake --install "$BUILD" --prefix "$P" >/dev/null || fail "cmake --install failed"
for f in bin/orderly share/man/man1/orderly.1 \
	share/orderly/schema/scenario.rng share/orderly/schema/bundle.rng \
	share/orderly/rulesets/battalion/tables.xml share/orderly/rulesets/krigsspil/skema.xml \
	share/orderly/rulesets/battalion/examples/scenario.xml \
	share/orderly/rulesets/krigsspil/examples/scenario.xml \
	share/orderly/rulesets/krigsspil/examples/map.xml \
	share/orderly/rulesets/battalion/examples/demo/turn1-french.txt \
	share/doc/orderly/README.md share/doc/orderly/threat-model.md share/doc/orderly/pbem.md \
	share/doc/orderly/notations/hieroglyph.md share/doc/orderly/notations/ordre.md \
	share/doc/orderly/rulesets/krigsspil.md; do
	[[ -s "$P/$f" ]] || fail "not installed: $f"
done
[[ ! -e "$P/share/orderly/schema/sql" ]] || fail "the migrations are installed (they are built in)"
[[ ! -e "$P/share/orderly/rulesets/template" ]] || fail "the template module's sources are installed"
cmp -s "$P/share/orderly/rulesets/battalion/tables.xml" "$SRC/rulesets/battalion/tables.xml" ||
	fail "the installed battalion tables differ from the built-in ones"

# the installed binary plays: a game from the installed example scenario
expect_exit 0 "$P/bin/orderly" new "$TMP/g.game" --scenario "$P/share/orderly/rulesets/battalion/examples/scenario.xml"
expect_exit 0 "$P/bin/orderly" submit "$TMP/g.game" --side french --check \
	"$P/share/orderly/rulesets/battalion/examples/demo/turn1-french.txt"

# its parts (src/cli/plugins.c) are installed where it finds them from
# where it is, whatever the prefix: a PNG loads the pictures' part
lib=$(cd "$P" && find lib* -maxdepth 2 -type d -name orderly | head -1)
for part in orderly-png.so orderly-mime.so orderly-web.so; do
	[[ -s "$P/$lib/$part" ]] || fail "not installed: LIBDIR/orderly/$part"
done
expect_exit 0 "$P/bin/orderly" version
expect_in "$OUT" "part orderly-png.so: $(cd "$P/$lib" && pwd -P)/orderly-png.so"
expect_exit 0 "$P/bin/orderly" chart "$TMP/g.game" --referee -o "$TMP/g.png"
[[ "$(head -c 4 "$TMP/g.png" | od -An -tx1 | tr -d ' \n')" == 89504e47 ]] ||
	fail "the installed binary made no PNG"

# a message about the built-in tables names their installed copy where
# there is one, else says they are built in: never a path of the source
# tree, nor one where nothing was installed (a binary run from its build
# directory named /usr/local/share/orderly/...); and it lists the tables
expect_exit 64 ord rules battalion nosuch
expect_in "$ERR" "(expected one of units kinds formations "
expect_not_in "$ERR" " rulesets/battalion/tables.xml"
named=$(sed -n "s/^orderly: no table 'nosuch' in \(.*\) (expected one of .*/\1/p" <<<"$ERR")
[[ "$named" == "the built-in battalion tables" || -r "$named" ]] ||
	fail "the message names '$named', which is not there"
note "ok"
