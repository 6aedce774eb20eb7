#!/bin/sh
# tests/lint.sh: the module boundaries of resolver/README, checked on every
# "make check": cache/ and curve/ are leaves and never include a header
# from resolver/ (nor each other), and libuv appears only in resolver/;
# inside resolver/, each room includes only the rooms its README names on
# its "May include:" line, and names a header of its own room bare and
# any other as ROOM/FILE; the codec, the iterator and the other pure rooms
# never include libuv; every test that starts the daemon names its own
# root hints; and every log format is made of key=VALUE fields
# (tests/lint_log.py).
srcdir=${srcdir:-.}
fail=0
for dir in cache curve; do
  for f in "$srcdir/$dir"/*.c "$srcdir/$dir"/*.h; do
    [ -e "$f" ] || continue
    # Any quoted include must name a header of this module.
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
      while IFS= read -r line; do
        hdr=$(printf '%s\n' "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
        case "$hdr" in
          */*) echo "lint: $f: includes \"$hdr\" from outside $dir/"; echo x ;;
          *) [ -e "$srcdir/$dir/$hdr" ] || [ "$hdr" = config.h ] ||
               { echo "lint: $f: includes \"$hdr\", not a header of $dir/"; echo x; } ;;
        esac
      done | grep -q '^x$' && { fail=1; grep -n 'include' "$f" | sed "s|^|lint: $f: |"; }
    if grep -n '<uv\.h>\|"uv\.h"' "$f"; then
      echo "lint: $f: libuv is for resolver/ only"; fail=1
    fi
  done
done
# The rooms of resolver/ (resolver/README): every quoted include is a
# header of the same room (bare), of an allowed room (ROOM/FILE), config.h
# or a leaf's public header; libuv only where the room may do I/O.
uv_rooms=" base front front_tls transport ctl daemon "
for readme in "$srcdir"/resolver/*/README; do
  dir=${readme%/README}; room=${dir##*/}
  allowed=$(sed -n 's/^May include: *//p' "$readme")
  [ -n "$allowed" ] || { echo "lint: $readme: no \"May include:\" line"; fail=1; continue; }
  for f in "$dir"/*.c "$dir"/*.h; do
    [ -e "$f" ] || continue
    for hdr in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
      case "$hdr" in
        config.h|cache.h|curve.h) ;;
        */*/*) echo "lint: $f: includes \"$hdr\" (ROOM/FILE only)"; fail=1 ;;
        */*) r=${hdr%%/*}
             case " $allowed " in
               *" $r "*) [ -e "$srcdir/resolver/$hdr" ] ||
                 { echo "lint: $f: includes \"$hdr\", which does not exist"; fail=1; } ;;
               *) [ "$r" = "$room" ] && echo "lint: $f: names its own room's \"$hdr\" with the room" ||
                    echo "lint: $f: room $room includes \"$hdr\"; resolver/$room/README allows: $allowed"
                  fail=1 ;;
             esac ;;
        *) [ -e "$dir/$hdr" ] ||
             { echo "lint: $f: includes \"$hdr\", not a header of $room/ (write ROOM/FILE)"; fail=1; } ;;
      esac
    done
    case "$uv_rooms" in *" $room "*) ;; *)
      if grep -n '<uv\.h>\|"uv\.h"' "$f"; then
        echo "lint: $f: libuv in room $room, which does no I/O"; fail=1
      fi ;;
    esac
  done
done
# Every room has a README (a folder without one would escape the checks
# above).
for dir in "$srcdir"/resolver/*/; do
  [ -e "${dir}README" ] || { echo "lint: ${dir}: a room without a README"; fail=1; }
done
# No file of resolver/ lives outside a room.
for f in "$srcdir"/resolver/*.c "$srcdir"/resolver/*.h; do
  [ -e "$f" ] && { echo "lint: $f: outside a room of resolver/"; fail=1; }
done
# The libraries' preprocessor flags carry no -I for resolver/.
if grep -E '^(curve|cache)_lib[a-z]+_a_CPPFLAGS.*resolver' "$srcdir/Makefile.am"; then
  echo "lint: Makefile.am: a leaf library has -I for resolver/"; fail=1
fi
# One must-check mark per library (issue 14): MUST_CHECK in
# resolver/base/base.h, CACHE_MUST_CHECK in cache/cache.h, CURVE_MUST_CHECK in
# curve/curve.h; no other definition, no bare warn_unused_result.
marks=$(grep -n 'warn_unused_result' "$srcdir"/resolver/*/*.[ch] \
  "$srcdir"/cache/*.[ch] "$srcdir"/curve/*.[ch] |
  grep -v '^[^:]*/resolver/base/base\.h:[0-9]*:#define MUST_CHECK ' |
  grep -v '^[^:]*/cache/cache\.h:[0-9]*:#define CACHE_MUST_CHECK ' |
  grep -v '^[^:]*/curve/curve\.h:[0-9]*:#define CURVE_MUST_CHECK ')
if [ -n "$marks" ]; then
  printf 'lint: a must-check mark outside base.h/cache.h/curve.h: %s\n' "$marks"
  fail=1
fi
# No test may send a packet to the real root servers: a script that
# starts the daemon names its own root hints (root-hints:) or writes its
# config with the lab helpers of tests/e2e/e2e_lib.sh, which do.
for f in "$srcdir"/tests/e2e/*.sh "$srcdir"/tests/lab/*.sh \
         "$srcdir"/tests/bench/*.sh; do
  [ -e "$f" ] || continue
  grep -q '" -f -c \|curvecache -f -c ' "$f" || continue
  grep -q 'root-hints: \|cc_start\|cc_conf' "$f" && continue
  echo "lint: $f: starts curvecache without its own root-hints"; fail=1
done
# Log formats (resolver/base/log.h): "key=VALUE" fields only, no hand-made
# quotes (the logger escapes every value), types as mnemonics.
if command -v python3 >/dev/null 2>&1; then
  python3 "$srcdir/tests/lint_log.py" "$srcdir"/resolver/*/*.c || fail=1
else
  echo "lint: python3 missing, log formats not checked"
fi
# README is the front door (issue 14): what the project is, the two
# commands, a tour and pointers; the reference lives in the man pages and
# the rooms' READMEs. It stays at most 300 lines.
readme_lines=$(wc -l <"$srcdir/README")
if [ "$readme_lines" -gt 300 ]; then
  echo "lint: README has $readme_lines lines, at most 300: move reference text to etc/man/ or a room's README"
  fail=1
fi
[ $fail -eq 0 ] && echo "lint: module boundaries and rooms hold, test configs name their root hints, log formats are logfmt, README is short"
exit $fail
