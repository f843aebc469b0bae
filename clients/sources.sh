#!/usr/bin/env bash
# Lays out the official clients' sources under vendor/ from a git clone of the public
# repository lune-climate/lune-ts (MIT), at the exact release commits (see vendor/README.md).
# The sources are not committed here: the project reads others' code, it does not copy it.
#   LUNE_TS_GIT   a clone (bare or not) of lune-climate/lune-ts
#                 (default: the session mirror /work/.mirror/lune-climate+lune-ts/repo)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="${LUNE_TS_GIT:-/work/.mirror/lune-climate+lune-ts/repo}"
git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || {
    echo "no lune-ts clone at $repo: clone lune-climate/lune-ts and set LUNE_TS_GIT" >&2
    exit 2
}
extract() { # directory commit
    local dir="$here/vendor/$1"
    git -C "$repo" cat-file -e "$2^{commit}" 2>/dev/null || {
        echo "commit $2 is not in $repo (fetch its tags)" >&2
        exit 2
    }
    rm -rf "$dir/src" "$dir/dist"
    git -C "$repo" archive "$2" src LICENSE tsconfig-base.json tsconfig-cjs.json | tar -x -C "$dir"
}
extract lune2 17546c96c3a9a1426293a326cc1d76ef93a18697
extract lune3 404b104bf947b3b1ba7abe03ec7ec37961fb8a33
