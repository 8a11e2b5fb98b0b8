#!/usr/bin/env bash
# The style check CI runs: every C++ file changed since the commit that last changed .clang-format (the commit that
# formatted the whole tree) must be as clang-format leaves it. Run it before committing; `clang-format -i FILE`
# fixes a file. Exit 1 lists the files and the first lines of the difference.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "format-check: not a git checkout, no changed files to check" >&2
  exit 0
fi
base=${FB_FORMAT_BASE:-$(git log -n1 --format=%H -- .clang-format)}
mapfile -t files < <( (git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h'; git ls-files --others --exclude-standard -- '*.cpp' '*.h') | sort -u)
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if ! clang-format --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]})); then
  echo "format-check: ${#bad[@]} of ${#files[@]} changed C++ files differ from clang-format's layout:" >&2
  for f in "${bad[@]}"; do
    echo "  $f" >&2
    diff -u "$f" <(clang-format --style=file "$f") | sed -n '3,12p' | sed 's/^/    /' >&2 || true
  done
  exit 1
fi
echo "format-check: ${#files[@]} changed C++ files formatted (since ${base:0:10})"
