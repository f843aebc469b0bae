#!/usr/bin/env python3
"""The rules inside a crate (docs/ARCHITECTURE.md, "Inside a crate"), file by file.

For every crate under crates/, reads the module tree of src/ (test modules
left out: files declared under #[cfg(test)], inline test modules, tests.rs)
and the paths each file names (`use crate::…`, `use super::…`, and the same
paths written inline), following re-exports to the file that defines a name.
It fails when

  * files import each other in a loop (a circle),
  * a child module borrows from an ancestor: it names something its parent
    (or a parent's parent) defines itself, rather than a sibling's or its own,
  * a domain's `service/` folder has a file with more than one public use case
    (`pub fn` on the service, or more than one `pub struct`) — counted, not
    parsed: a file there declares one `impl` of the service,
  * a resource folder under a front end's `routes/` keeps wire types (types
    deriving Serialize or Deserialize) in a handler file rather than `wire.rs`.

Usage: scripts/check-rooms.py [crates-dir | --self-test]; prints one line per crate, and
each breach with the names that make it.
"""

from __future__ import annotations

import os
import re
import sys
from collections import defaultdict

CRATES = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else os.path.join(os.path.dirname(__file__), "..", "crates")

MOD_DECL = re.compile(r"^\s*(#\[[^\]]*\]\s*)*(pub(\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)
CFG_TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(#\[[^\]]*\]\s*)*(pub(\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*([;{])")
PATH_ATTR = re.compile(r"#\[path\s*=")
USE_STMT = re.compile(r"\buse\s+((?:crate|super|self)\b[^;]*);", re.S)
ANY_USE = re.compile(r"\buse\s+([a-z_][A-Za-z0-9_]*\b[^;]*);", re.S)
INLINE_PATH = re.compile(r"(?<![\w:$])((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def strip_comments_and_strings(text: str) -> str:
    """Blanks comments and string literals, keeping line breaks."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        m = re.match(r'r(#*)"', text[i:i + 10]) if c == "r" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if m:
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
            continue
        if c == "'" and i + 2 < n and (text[i + 2] == "'" or (text[i + 1] == "\\")):
            j = text.find("'", i + 2)
            j = n if j < 0 else j
            out.append("' '")
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def drop_inline_test_modules(text: str) -> str:
    """Removes `#[cfg(test)] mod x { … }` blocks (brace-matched)."""
    while True:
        m = next((m for m in CFG_TEST_MOD.finditer(text) if m.group(5) == "{"), None)
        if not m:
            return text
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        text = text[: m.start()] + text[j:]


class Crate:
    def __init__(self, root: str):
        self.root = root
        self.files: dict[tuple, str] = {}  # module path -> file
        self.text: dict[tuple, str] = {}
        src = os.path.join(root, "src")
        for top in ("lib.rs", "main.rs"):
            if os.path.exists(os.path.join(src, top)):
                self.load((), os.path.join(src, top))
                break

    def load(self, path: tuple, file: str) -> None:
        raw = open(file, encoding="utf-8").read()
        text = drop_inline_test_modules(strip_comments_and_strings(raw))
        self.files[path] = file
        self.text[path] = text
        tests = {m.group(4) for m in CFG_TEST_MOD.finditer(text) if m.group(5) == ";"}
        base = os.path.dirname(file)
        name = os.path.basename(file)
        if name not in ("lib.rs", "main.rs", "mod.rs"):
            base = os.path.join(base, name[:-3])
        for m in MOD_DECL.finditer(text):
            child = m.group(4)
            if child in tests or child == "tests" or (m.group(0) and PATH_ATTR.search(m.group(0))):
                continue
            for cand in (os.path.join(base, child + ".rs"), os.path.join(base, child, "mod.rs")):
                if os.path.exists(cand):
                    self.load(path + (child,), cand)
                    break

    # --- names each module brings into scope (re-exports and plain uses) ---
    def scope(self, mod: tuple) -> dict[str, tuple | None]:
        """name -> full path (as segments, resolved to crate-absolute) it refers to."""
        names: dict[str, tuple] = {}
        for m in ANY_USE.finditer(self.text.get(mod, "")):
            for full, alias in expand_use(m.group(1)):
                absolute = self.absolute(mod, full)
                if alias in ("self", "*"):
                    continue
                # another crate's name (None) is no room of this one
                names[alias] = absolute
        return names

    def absolute(self, mod: tuple, segments: list[str]) -> tuple | None:
        if not segments:
            return None
        head, rest = segments[0], segments[1:]
        if head == "crate":
            base = ()
        elif head in ("super", "self"):
            base = mod
            while segments and segments[0] in ("super", "self"):
                if segments[0] == "super":
                    if not base:
                        return None
                    base = base[:-1]
                segments = segments[1:]
            rest = segments
        elif mod + (head,) in self.files:
            base, rest = mod, segments
        else:
            return None
        return base + tuple(rest)

    def resolve(self, path: tuple, seen=None) -> tuple[tuple, tuple] | None:
        """The module (file) that defines what `path` names, following
        re-exports, and the name's path inside it."""
        seen = seen or set()
        if path in seen:
            return None
        seen.add(path)
        # the longest prefix that is a module of this crate
        k = len(path)
        while k > 0 and path[:k] not in self.files:
            k -= 1
        module = path[:k]
        if module not in self.files:
            return None
        if k == len(path):
            return module, ()
        name = path[k]
        scope = self.scope(module)
        if name in scope:
            if scope[name] is None:
                return None
            resolved = self.resolve(scope[name] + path[k + 1:], seen)
            return resolved if resolved is not None else (module, path[k:])
        return module, path[k:]

    def edges(self) -> dict[tuple, dict[tuple, set[str]]]:
        """file -> file it names -> the names (the first segment inside it)."""
        out: dict[tuple, dict[tuple, set[str]]] = defaultdict(lambda: defaultdict(set))
        for mod, text in self.text.items():
            refs: list[list[str]] = []
            faces: set[str] = set()
            for m in ANY_USE.finditer(text):
                uses = [full for full, _ in expand_use(m.group(1))]
                if re.search(r"pub(\([^)]*\))?\s*$", text[max(0, m.start() - 16): m.start()]):
                    # a module's face hands its children's names on: no arrow
                    faces.update("::".join(u) for u in uses)
                refs.extend(uses)
            body = ANY_USE.sub("", text)
            refs.extend(m.group(1).split("::") for m in INLINE_PATH.finditer(body))
            # `$crate::…` inside a macro resolves where the macro is used: no
            # arrow of the file that defines it
            for full in refs:
                full = [s for s in full if s != "*"]
                absolute = self.absolute(mod, full)
                if absolute is None:
                    continue
                found = self.resolve(absolute)
                if found is None:
                    continue
                target, inside = found
                if target == mod or not inside:
                    continue
                if "::".join(full) in faces and target[: len(mod)] == mod:
                    continue
                out[mod][target].add(inside[0])
        return out


def is_helper(text: str, name: str) -> bool:
    """Whether `text` defines `name` as a helper: a function, constant, static
    or macro that is not public (a public one is the module's face, as its
    types are)."""
    n = re.escape(name)
    for m in re.finditer(r"^[ \t]*(#\[[^\]]*\]\s*)*(pub(\([^)]*\))?\s+)?((const|async|unsafe)\s+)*(fn|const|static)\s+" + n + r"\b", text, re.M):
        if not (m.group(2) and not m.group(3)):
            return True
    for m in re.finditer(r"(#\[macro_export\]\s*)?macro_rules!\s*" + n + r"\b", text):
        if not m.group(1):
            return True
    return False


def expand_use(tree: str) -> list[tuple[list[str], str]]:
    """`a::{b, c::d as e}` -> [(['a','b'],'b'), (['a','c','d'],'e')]."""
    tree = re.sub(r"\s+as\s+", "@", tree)
    tree = re.sub(r"\s+", "", tree)
    results: list[tuple[list[str], str]] = []

    def walk(prefix: list[str], t: str) -> None:
        if not t:
            return
        if "{" not in t:
            path, _, alias = t.partition("@")
            segs = prefix + [p for p in path.split("::") if p]
            if segs and segs[-1] == "self":
                segs = segs[:-1]
            if segs:
                results.append((segs, alias or segs[-1]))
            return
        i = t.index("{")
        head = [p for p in t[:i].split("::") if p]
        inner = t[i + 1: t.rindex("}")]
        depth, start = 0, 0
        for j, ch in enumerate(inner + ","):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                walk(prefix + head, inner[start:j])
                start = j + 1

    walk([], tree)
    return results


def circles(graph: dict[tuple, dict[tuple, set[str]]]) -> list[list[tuple]]:
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            strong(v)
    return out


WIRE_DERIVE = re.compile(r"#\[derive\([^)]*\b(Serialize|Deserialize)\b")
HANDLER = re.compile(r"#\[(get|post|put|patch|delete)\(|web::(get|post|put|patch|delete)\(\)|HttpResponse")


def main() -> int:
    status = 0
    crates = sorted(d for d in os.listdir(CRATES) if os.path.isdir(os.path.join(CRATES, d, "src")))
    for name in crates:
        crate = Crate(os.path.join(CRATES, name))
        graph = crate.edges()
        rel = lambda mod: os.path.relpath(crate.files[mod], os.path.join(CRATES, ".."))
        problems: list[str] = []
        for comp in circles(graph):
            ties = []
            for a in comp:
                for b, names in graph[a].items():
                    if b in comp:
                        ties.append(f"{rel(a)} -> {rel(b)} ({', '.join(sorted(names))})")
            problems.append("circle: " + "; ".join(ties))
        for mod, targets in graph.items():
            for target, names in targets.items():
                helpers = sorted(n for n in names if is_helper(crate.text[target], n))
                if helpers and len(target) < len(mod) and mod[: len(target)] == target:
                    names = helpers
                    problems.append(f"borrows from its parent: {rel(mod)} -> {rel(target)} ({', '.join(sorted(names))})")
        for mod, file in crate.files.items():
            parts = file.split(os.sep)
            text = crate.text[mod]
            if "service" in parts[:-1] and name != "tonne" and os.path.basename(file) != "mod.rs":
                impls = len(re.findall(r"^impl(<[^>]*>)?\s+[A-Z]\w*(<[^>]*>)?\s*\{", text, re.M))
                if impls > 1:
                    problems.append(f"more than one use case: {rel(mod)} has {impls} `impl` blocks of the service")
            if "routes" in parts[:-1] and os.path.basename(file) not in ("wire.rs",) and not file.endswith(os.sep + "wire.rs"):
                if HANDLER.search(text) and WIRE_DERIVE.search(text) and os.path.exists(os.path.join(os.path.dirname(file), "wire.rs")):
                    problems.append(f"wire types beside handlers: {rel(mod)} derives Serialize/Deserialize (they belong in wire.rs)")
        if problems:
            status = 1
            print(f"rooms: {name}: {len(problems)} breach(es)")
            for p in problems:
                print(f"  {p}")
        else:
            print(f"rooms: {name}: {len(crate.files)} files, {sum(len(t) for t in graph.values())} arrows, no circle, no child borrowing from its parent")
    return status


def self_test() -> int:
    """Builds a small crate with each breach, and one without, and checks
    that the rules find exactly those."""
    import tempfile

    files = {
        "bad/src/lib.rs": "mod a;\nmod b;\nmod parent;\n",
        "bad/src/a.rs": "use crate::b::Bee;\npub struct Ay;\n",
        "bad/src/b.rs": "use crate::a::Ay;\npub struct Bee;\n",
        "bad/src/parent/mod.rs": "mod child;\npub use child::Kid;\nfn helper() {}\npub struct Face;\n",
        "bad/src/parent/child.rs": "use super::{helper, Face};\npub struct Kid;\n",
        "good/src/lib.rs": "mod parent;\npub use parent::Kid;\n#[cfg(test)]\nmod tests;\n",
        "good/src/tests.rs": "use crate::parent::child::helper;\n",
        "good/src/parent/mod.rs": "mod child;\nmod shared;\npub use child::Kid;\npub struct Face;\nfn f() { shared::helper(); }\n",
        "good/src/parent/shared.rs": "pub(super) fn helper() {}\n",
        "good/src/parent/child.rs": "use super::shared::helper;\nuse super::Face;\npub struct Kid;\n#[cfg(test)]\nmod tests { use super::super::f; }\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        found = {}
        for name in ("bad", "good"):
            crate = Crate(os.path.join(root, name))
            graph = crate.edges()
            found[name] = (
                len(circles(graph)),
                sorted(
                    n
                    for mod, targets in graph.items()
                    for target, names in targets.items()
                    if len(target) < len(mod) and mod[: len(target)] == target
                    for n in names
                    if is_helper(crate.text[target], n)
                ),
            )
    expected = {"bad": (1, ["helper"]), "good": (0, [])}
    if found != expected:
        print(f"check-rooms self-test failed: found {found}, expected {expected}")
        return 1
    print("rooms: the self-test finds a circle and a borrowed helper, and passes a crate without them")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main())
