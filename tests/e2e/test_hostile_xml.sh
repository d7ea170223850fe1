#!/usr/bin/env bash
# test_hostile_xml.sh - hostile XML through every way orderly reads XML:
# a scenario (orderly new --scenario), ruleset tables (orderly new
# --tables, rules --tables, calc --tables) and a turn bundle (orderly
# verify, which reads it as a stream).  The documents and the message
# each must get are listed in tests/e2e/hostile-xml.tsv: billion laughs,
# quadratic blow-up, external entities (file and http), external DTDs,
# parameter entities, XInclude, 10,000-deep nesting, a 50 MB text node,
# encoding tricks.
#
# Every run is made under an LD_PRELOAD shim (tests/e2e/shim/openlog.c)
# that logs each file opened and socket made and the peak memory.  Each
# refusal must: exit 65 with an "orderly: DOCUMENT..." message holding the
# expected words; create no game file; open no file but the document (the
# secret.txt and evil.dtd the documents point at are never read, and nothing
# outside the system's own files is opened); make no socket; stay under
# HOSTILE_MAX_KB of peak memory.
#
# The control: tests/e2e/shim/xml_control.c parses the same documents with
# libxml2's unsafe options under the same shim, which must then see
# secret.txt, evil.dtd and a socket opened - so the shim can see what it
# looks for, and a hardening that broke would fail this test.
#
# Environment: ORDERLY, SRC, BUILD (CTest sets them); HOSTILE_MAX_KB;
# HOSTILE_TSV, another catalogue (a few of its lines, say).
set -euo pipefail

SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$SRC/build}
ORDERLY=${ORDERLY:-$BUILD/orderly}
SHIM=${SHIM:-$BUILD/tests/libord_openlog.so}
CONTROL=${CONTROL:-$BUILD/tests/ord_xml_control}
# ASan's own bookkeeping counts; an entity expansion would need gigabytes.
# The largest is bundle-text-50mb.xml verified from its file: about 450 MB
# under ASan (170 MB in a release build, as from standard input), libxml2's
# reader holding the 50 MB text it reads from the file, as it grows
MAX_KB=${HOSTILE_MAX_KB:-524288}
NAME=test_hostile_xml
HERE=$SRC/tests/e2e

fail() {
	echo "FAIL: $NAME: $*" >&2
	exit 1
}
[ -x "$ORDERLY" ] || fail "no orderly binary at '$ORDERLY' (set ORDERLY)"
[ -f "$SHIM" ] || fail "no open-logging shim at '$SHIM' (built by tests/CMakeLists.txt; set SHIM)"
[ -x "$CONTROL" ] || fail "no control program at '$CONTROL' (set CONTROL)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/orderly-hostile.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
mkdir "$TMP/docs"
echo "the referee's secret" >"$TMP/secret.txt"
sed "s|@TMP@|$TMP|g" "$HERE/hostile-xml/evil.dtd" >"$TMP/evil.dtd"
GOOD=$SRC/rulesets/battalion/examples/scenario.xml

# The generated documents (too large, or too repetitive, to keep in git).
generate() {
	local f=$TMP/docs/$1
	case $1 in
	quadratic-blowup.xml)
		{
			printf '<?xml version="1.0"?>\n<!DOCTYPE scenario [<!ENTITY a "'
			head -c 100000 /dev/zero | tr '\0' a
			printf '">]>\n<scenario ruleset="battalion"><title>'
			printf '&a;&a;&a;&a;&a;%.0s' $(seq 2000)
			printf '</title></scenario>\n'
		} >"$f" ;;
	deep-10000.xml)
		{
			printf '<?xml version="1.0"?>\n<scenario ruleset="battalion">'
			printf '<title>%.0s' $(seq 10000)
			printf x
			printf '</title>%.0s' $(seq 10000)
			printf '</scenario>\n'
		} >"$f" ;;
	text-50mb.xml)
		{
			printf '<?xml version="1.0"?>\n<scenario ruleset="battalion"><title>'
			head -c 52428800 /dev/zero | tr '\0' a
			printf '</title></scenario>\n'
		} >"$f" ;;
	text-12mb-scenario.xml)
		{
			printf '<?xml version="1.0"?>\n<scenario ruleset="battalion"><title>'
			head -c 12582912 /dev/zero | tr '\0' a
			printf '</title></scenario>\n'
		} >"$f" ;;
	text-12mb-tables.xml)
		{
			printf '<?xml version="1.0"?>\n<tables ruleset="battalion"><params name="fuzz-huge-note" title="x"><note>'
			head -c 12582912 /dev/zero | tr '\0' a
			printf '</note><param name="p" value="1"/></params></tables>\n'
		} >"$f" ;;
	attr-12mb.xml)
		# over libxml2's own 10,000,000 bytes (its "AttValue length too
		# long" until documents over 8 MiB were read with XML_PARSE_HUGE,
		# 41fdfa8): refused by what orderly checks, in 16 MiB at most;
		# since the fifteenth session by the pre-scan, a tag over 8 MiB
		# (libxml2's reader reads one over 10 MB again for every 512
		# bytes)
		{
			printf '<?xml version="1.0"?>\n<scenario ruleset="battalion" x="'
			head -c 12582912 /dev/zero | tr '\0' a
			printf '"><title>t</title></scenario>\n'
		} >"$f" ;;
	attr-12mb-tables.xml)
		{
			printf '<?xml version="1.0"?>\n<tables ruleset="battalion" x="'
			head -c 12582912 /dev/zero | tr '\0' a
			printf '"><params name="p" title="t"><param name="p" value="1"/></params></tables>\n'
		} >"$f" ;;
	many-elements.xml)
		# 20,000 units, none with the attributes the ruleset needs
		{
			printf '<?xml version="1.0"?>\n<scenario ruleset="battalion"><title>t</title>'
			printf '<side id="a" name="A"/><side id="b" name="B"/>\n'
			seq 1 20000 | sed 's|.*|<unit id="U&" name="Unit &" side="a"/>|'
			printf '</scenario>\n'
		} >"$f" ;;
	bundle-*.xml)
		# a bundle's root and key as export writes them, then the case
		{
			printf '<?xml version="1.0" encoding="UTF-8"?>\n<bundle format="2" game="%s" turn="1" ruleset="battalion" referee="yes">\n' \
				"$(printf '0%.0s' $(seq 32))"
			printf '  <key>%s</key>\n' "$(printf 'a%.0s' $(seq 64))"
			case $1 in
			bundle-deep.xml)
				# <units> holds elements: the nesting is refused
				printf '<units>%.0s' $(seq 10000)
				printf '</units>%.0s' $(seq 10000) ;;
			bundle-elements-in-text.xml)
				# 4,000,000 elements in one of text: a tree of them
				# would be built whole for the validator
				printf '  <title>'
				{ yes '<b/>' || true; } | head -n 4000000 | tr -d '\n'
				printf '</title>\n' ;;
			bundle-text-50mb.xml)
				# over every other input's 16 MiB, read: the
				# elements the schema wants after it are missing
				printf '  <title>'
				head -c 52428800 /dev/zero | tr '\0' a
				printf '</title>\n' ;;
			*) fail "no generator for '$1'" ;;
			esac
			printf '</bundle>\n'
		} >"$f" ;;
	*) fail "no generator for '$1'" ;;
	esac
}

# Run orderly ARGS under the shim; sets RC, ERR and LOG (the shim's lines).
shimmed() {
	local log=$TMP/openlog
	rm -f "$log"
	RC=0
	ORD_OPENLOG=$log LD_PRELOAD=$SHIM ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		"$@" >"$TMP/out" 2>"$TMP/err" || RC=$?
	ERR=$(cat "$TMP/err")
	LOG=$(cat "$log" 2>/dev/null || true)
}

# Files a refusal may open besides the document: the system's own.
allowed_open() {
	case $1 in
	"$2" | /proc/* | /sys/* | /dev/* | /etc/localtime | /usr/share/zoneinfo/* | \
		/etc/ld.so.* | /usr/lib/* | /lib/*) return 0 ;;
	esac
	return 1
}

check_refusal() {
	local doc=$1 want=$2 what=$3 game=$4 line path kb
	# what a hostile document is after first: files, the network, memory
	for f in "$game" "$game-wal" "$game-shm" "$game-journal"; do
		[ ! -e "$f" ] || fail "$what: '$f' was created"
	done
	[ -n "$LOG" ] || fail "$what: the shim logged nothing (not even the document): is it preloaded?"
	grep -q "^open $doc\$" <<<"$LOG" || fail "$what: the shim did not see the document opened:
$LOG"
	while read -r kind path; do
		case $kind in
		open) allowed_open "$path" "$doc" || fail "$what: opened '$path'" ;;
		socket | connect) fail "$what: made a network $kind" ;;
		vmhwm) kb=$path ;;
		esac
	done <<<"$LOG"
	[ -n "${kb:-}" ] || fail "$what: no peak memory reported"
	[ "$kb" -le "$MAX_KB" ] || fail "$what: peak memory ${kb} kB over the limit of $MAX_KB kB"
	PEAK=$kb
	# then a clear refusal
	[ "$RC" = 65 ] || fail "$what: exit $RC, expected 65; stderr: $ERR"
	[[ $ERR == "orderly: "* ]] || fail "$what: the message does not start with 'orderly: ': $ERR"
	[[ $ERR == *"$want"* ]] || fail "$what: expected '$want' in the message: $ERR"
	[[ $ERR == *"$(basename "$doc")"* ]] || fail "$what: the message does not name the document: $ERR"
}

ndocs=0
nruns=0
maxpeak=0
maxpeak_doc=
while IFS=$'\t' read -r file routes want; do
	[[ -z $file || $file == \#* ]] && continue
	if [[ $file == @* ]]; then
		file=${file#@}
		generate "$file"
	else
		sed "s|@TMP@|$TMP|g" "$HERE/hostile-xml/$file" >"$TMP/docs/$file"
	fi
	doc=$TMP/docs/$file
	ndocs=$((ndocs + 1))
	runs=()
	case $routes in
	scenario) runs=(scenario) ;;
	tables) runs=(new-tables rules calc) ;;
	both) runs=(scenario new-tables rules calc) ;;
	bundle) runs=(verify) ;;
	*) fail "hostile-xml.tsv: '$file': routes '$routes' (expected scenario, tables, both or bundle)" ;;
	esac
	for r in "${runs[@]}"; do
		game=$TMP/$r.game
		case $r in
		scenario) shimmed "$ORDERLY" new "$game" --scenario "$doc" ;;
		new-tables) shimmed "$ORDERLY" new "$game" --scenario "$GOOD" --tables "$doc" ;;
		rules) shimmed "$ORDERLY" rules battalion --tables "$doc" ;;
		calc) shimmed "$ORDERLY" calc battalion fire firers=24 weapon=musket range=3 --tables "$doc" ;;
		verify) shimmed "$ORDERLY" verify "$doc" ;;
		esac
		if [ $r = new-tables ]; then
			# the good scenario is read too
			LOG=$(grep -v "^open $GOOD\$" <<<"$LOG" || true)
		fi
		check_refusal "$doc" "$want" "$file via $r" "$game"
		nruns=$((nruns + 1))
		if [ "$PEAK" -gt "$maxpeak" ]; then maxpeak=$PEAK; maxpeak_doc="$file via $r"; fi
	done
done <"${HOSTILE_TSV:-$HERE/hostile-xml.tsv}"
[ -n "${HOSTILE_TSV:-}" ] || [ $ndocs -ge 25 ] || fail "only $ndocs documents in hostile-xml.tsv"

# The control: unsafe libxml2 under the same shim does open what orderly never did.
control() {
	local file=$1 want=$2
	sed "s|@TMP@|$TMP|g" "$HERE/hostile-xml/$file" >"$TMP/control.xml"
	shimmed "$CONTROL" "$TMP/control.xml"
	grep -Eq "$want" <<<"$LOG" || fail "control: unsafe libxml2 on $file did not show /$want/ in the shim's log, so the shim may be blind:
$LOG"
}
control xxe-file.xml "^open $TMP/secret.txt\$"
control external-dtd.xml "^open $TMP/evil.dtd\$"
control parameter-entity.xml "^open $TMP/evil.dtd\$"
control xinclude.xml "^open $TMP/secret.txt\$"
control xxe-http.xml "^(socket|connect)"

echo "$NAME: $ndocs hostile documents, $nruns refusals: each exit 65 with its message, no file opened but the document, no socket, no game file; peak memory ${maxpeak} kB ($maxpeak_doc); the control saw the opens"
