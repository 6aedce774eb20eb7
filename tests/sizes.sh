#!/bin/sh
# tests/sizes.sh - the size limits of issue 14: no .c or .h file under
# resolver/, cache/ or curve/ over 800 lines, and no function there over
# 60 lines. A function is found by the house style: its signature ends on
# the line before a "{" at column 0, and it ends at the next "}" at
# column 0; its length is the lines between the two braces. Offenders
# are listed as FILE:LINE (the opening brace) and the test exits 1.
# Reads files only; runs from the source tree or a build tree (srcdir).

top=${srcdir:-.}
[ -d "$top/resolver" ] || top=$(dirname "$0")/..
MAX_FILE=800
MAX_FUNC=60

bad=0
cd "$top" || exit 1
for f in resolver/*/*.c resolver/*/*.h cache/*.c cache/*.h curve/*.c curve/*.h
do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	if [ "$n" -gt "$MAX_FILE" ]; then
		echo "$f:1: $n lines (at most $MAX_FILE)"
		bad=1
	fi
	out=$(awk -v max="$MAX_FUNC" -v f="$f" '
		/^[A-Za-z_]/ { head = $0 }
		/^\{/ { if (prev !~ /[=;,]$/) { start = NR; name = head } }
		/^\}/ && start {
			len = NR - start - 1
			if (len > max)
				printf "%s:%d: function of %d lines (at most %d): %s\n",
				       f, start, len, max, name
			start = 0
		}
		{ prev = $0 }' "$f")
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	fi
done
exit $bad
