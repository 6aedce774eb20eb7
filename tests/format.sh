#!/bin/sh
# tests/format.sh - the house layout of issue 14: every .c and .h file
# under resolver/, cache/, curve/, tests/unit/, tests/fuzz/ and
# tests/bench/ (subfolders included) is exactly what clang-format makes
# of it with the project's .clang-format. Files that differ are listed
# with the number of lines that would change, and the test exits 1; so
# does a missing clang-format (install it: apt-get install clang-format).
# Reads files only; runs from the source tree or a build tree (srcdir).
# CLANG_FORMAT names another binary; the config is measured against
# clang-format 14 (Debian 12), other versions may lay out a few lines
# differently.
# Fix: clang-format -i FILE..., from the source tree (tests/README).

top=${srcdir:-.}
[ -d "$top/resolver" ] || top=$(dirname "$0")/..
cf=${CLANG_FORMAT:-clang-format}

if ! command -v "$cf" >/dev/null 2>&1; then
	echo "format: $cf not found: apt-get install clang-format" \
	     "(etc/setup.sh installs it)"
	exit 1
fi
cd "$top" || exit 1
if [ ! -f .clang-format ]; then
	echo "format: $(pwd)/.clang-format is missing"
	exit 1
fi

# -style=file takes the nearest .clang-format above each file: ours.
out=$(find resolver cache curve tests/unit tests/fuzz tests/bench \
	-type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null | LC_ALL=C sort |
	while IFS= read -r f; do
		n=$("$cf" -style=file "$f" | diff "$f" - | grep -c '^[<>]')
		[ "$n" -eq 0 ] || echo "$f: $n lines differ from clang-format"
	done)
count=$(find resolver cache curve -type f -name '*.[ch]' | wc -l)
if [ "$count" -eq 0 ]; then
	echo "format: no source files found under $(pwd)"
	exit 1
fi
if [ -n "$out" ]; then
	printf '%s\n' "$out" | sed 's/^/format: /'
	ver=$("$cf" --version | sed -n 's/.*version \([0-9][0-9.]*\).*/\1/p')
	echo "format: reformat with: clang-format -i FILE... (from $(pwd));" \
	     "checked with $cf $ver"
	exit 1
fi
echo "format: every source file is laid out as .clang-format says"
exit 0
