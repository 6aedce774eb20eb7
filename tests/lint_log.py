#!/usr/bin/env python3
"""tests/lint_log.py FILE.c...: the log calls of curvecache follow the
rules of resolver/base/log.h, so every line the daemon writes is logfmt:

  - the event name is a literal of [a-z0-9_];
  - the format is literal (string pieces and PRI* macros) and made of
    "key=VALUE" fields separated by spaces, keys of [a-z0-9_.];
  - no '"' in a format: the logger quotes and escapes every value itself,
    so a hand-made quote would be escaped (and a space in a literal
    value would split it): pass such text as a %s argument;
  - no record type logged as a number ("type=%u", "qtype=%u"): log
    rrtext_type_name (type=A, TYPE65280).

Prints "lint: FILE:LINE: problem" for each break; exit 1 if any.
Run by tests/lint.sh.
"""

import re
import sys

CALL = re.compile(r"\blog_(event_limited|event|error|warn|info|debug|"
                  r"warn_limited|info_limited|query)\s*\(")
# Calls whose format is the third argument (level, event, format).
WITH_LEVEL = ("event", "event_limited")


def args_of(src, pos):
    """The top-level arguments of the call whose '(' is at pos, as lists
    of tokens (('s', text) for string literals, ('x', text) otherwise)."""
    args, cur, depth, i = [], [], 0, pos + 1
    while i < len(src):
        c = src[i]
        if c == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            cur.append(("s", src[i + 1:j]))
            i = j + 1
            continue
        if c == "'":
            j = src.index("'", i + 2 if src[i + 1] == "\\" else i + 1)
            cur.append(("x", src[i:j + 1]))
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(cur)
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append(cur)
            cur = []
            i += 1
            continue
        if not c.isspace():
            cur.append(("x", c))
        i += 1
    return args


def literal(tokens):
    """The text of an argument made only of literals and PRI macros,
    else None."""
    text, word = "", ""
    for kind, t in tokens:
        if kind == "s":
            if word:
                if not word.startswith("PRI"):
                    return None
                text += "d"
                word = ""
            text += t
        else:
            word += t
    if word:
        if not word.startswith("PRI"):
            return None
        text += "d"
    return text if tokens else None


def problems(event, fmt):
    out = []
    if event is not None and not re.fullmatch(r"[a-z0-9_]+", event):
        out.append("event name %r is not [a-z0-9_]" % event)
    if '"' in fmt:
        out.append("a quote in the format %r: the logger quotes values; "
                   "pass text with spaces as a %%s argument" % fmt)
        return out
    for field in fmt.split(" "):
        if field == "":
            continue
        m = re.fullmatch(r"([a-z0-9_.]+)=(.*)", field)
        if m is None:
            out.append("field %r is not key=VALUE" % field)
        elif m.group(1).endswith("type") and \
                re.fullmatch(r"%[-+ #0-9.]*(hh|h|l|ll|z)?[udix]|%d",
                             m.group(2)):
            out.append("%r logs a type as a number: use "
                       "rrtext_type_name (type=A)" % field)
    return out


def check(path):
    src = open(path, encoding="utf-8", errors="replace").read()
    bad = 0
    for m in CALL.finditer(src):
        line = src.count("\n", 0, m.start()) + 1
        args = args_of(src, m.end() - 1)
        kind = m.group(1)
        first = 1 if kind in WITH_LEVEL else 0
        if kind == "query":
            event, fmt = None, literal(args[0]) if args else None
        else:
            if len(args) < first + 2:
                continue
            event = literal(args[first])
            fmt = literal(args[first + 1])
        if fmt is None:
            continue  # a declaration or definition, not a call
        for p in problems(event, fmt):
            print("lint: %s:%d: %s" % (path, line, p))
            bad = 1
    return bad


def main(paths):
    bad = 0
    for p in paths:
        bad |= check(p)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
