#!/usr/bin/env bash
# pictures.sh - the benchmark of the pictures (issue 13): a Krigsspil map of
# 1,000 plates (40 x 25, every terrain, roads and streams) with 500 units
# (250 a side, every formation and arm), drawn by `orderly map` for the
# referee and for a side, as SVG and as PNG; prints the time (best of REPS),
# the peak memory (GNU time's maximum resident set) and the size written.
# A benchmark, not a timed test: CI does not run it.
#
#   tests/bench/pictures.sh ORDERLY-BINARY [REPS]
set -euo pipefail
orderly=$1
reps=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }

terrains=(aabent aabent aabent aabent vanskeligt skov plantage bebyggelse sump vand)
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo '<map ruleset="krigsspil" title="bench" plate="30">'
	for r in $(seq 0 24); do
		for c in $(seq 0 39); do
			q=$((c - r / 2))
			t=${terrains[$(((c * 7 + r * 3) % 10))]}
			h=$(((c + r) % 5 - 1))
			if [ $((c % 6)) -eq 0 ]; then
				echo "  <plate q=\"$q\" r=\"$r\" terrain=\"$t\" height=\"$h\"><feature type=\"vej\" from=\"NW\" to=\"SE\"/></plate>"
			elif [ $((r % 8)) -eq 3 ]; then
				echo "  <plate q=\"$q\" r=\"$r\" terrain=\"$t\" height=\"$h\"><feature type=\"vandloeb\" from=\"W\" to=\"E\" width=\"2\"/></plate>"
			else
				echo "  <plate q=\"$q\" r=\"$r\" terrain=\"$t\" height=\"$h\"/>"
			fi
		done
	done
	echo '</map>'
} >"$work/map.xml"

forms=(linie angrebskolonne marchkolonne karre bataillonsmasse skyttekaede_taet)
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo '<scenario ruleset="krigsspil"><title>bench</title><nmr policy="hold"/>'
	echo '<side id="nord" name="Nord"/><side id="syd" name="Syd"/>'
	for i in $(seq 0 499); do
		side=nord
		y=$((20 + (i % 250) / 25 * 28))
		[ "$i" -ge 250 ] && side=syd && y=$((380 + (i % 250) / 25 * 28))
		x=$((20 + (i % 25) * 47))
		case $((i % 10)) in
		8) echo "<unit id=\"U$i\" name=\"Batteri $i\" side=\"$side\" art=\"fodartilleri\" kanoner=\"6\" x=\"$x\" y=\"$y\"/>" ;;
		9) echo "<unit id=\"U$i\" name=\"Rytteri $i\" side=\"$side\" art=\"let_kavaleri\" figurer=\"10\" formation=\"linie\" x=\"$x\" y=\"$y\"/>" ;;
		*) f=${forms[$((i % 6))]}
		   sp=no; [ "$f" = skyttekaede_taet ] && sp=yes
		   echo "<unit id=\"U$i\" name=\"Bataillon $i\" side=\"$side\" art=\"infanteri\" figurer=\"20\" formation=\"$f\" spredt=\"$sp\" x=\"$x\" y=\"$y\"/>" ;;
		esac
	done
	echo '</scenario>'
} >"$work/scenario.xml"

"$orderly" new "$work/bench.game" --scenario "$work/scenario.xml" --tables "$work/map.xml" >/dev/null

measure() { # name, output file, orderly arguments...
	local name=$1 out=$2 best="" t kb i
	shift 2
	for i in $(seq 1 "$reps"); do
		/usr/bin/time -f '%e %M' -o "$work/time" "$orderly" map "$work/bench.game" "$@" -o "$out"
		read -r t kb <"$work/time"
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
			mem=$kb
		fi
	done
	printf '%-28s %8s s %8s MB %10s bytes\n' "$name" "$best" "$((mem / 1024))" "$(stat -c %s "$out")"
}

echo "1,000 plates, 500 units ($(nproc) cores, best of $reps)"
measure "map --referee, SVG" "$work/ref.svg" --referee
measure "map --side nord, SVG" "$work/nord.svg" --side nord
measure "map --referee, PNG x1" "$work/ref1.png" --referee --scale 1
measure "map --referee, PNG x2" "$work/ref2.png" --referee
