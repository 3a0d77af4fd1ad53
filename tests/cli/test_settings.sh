#!/bin/sh
# SPDX-License-Identifier: MIT
# One list of settings: docs/settings.md and the README's table of
# environment variables are what cli/sg_gen_docs.c makes from
# sim/sg_env.def and device/sg_config.def (a stale copy fails, naming
# the command that regenerates it); the library reads SOFTGPU_* variables
# only through sg_env_get; softgpu --help shows the same list.
. "$(dirname "$0")/lib.sh"
: "${SG_GEN_DOCS:?}"
src="$SG_SOURCE_DIR"

expect 0 "$SG_GEN_DOCS" check "$src"

# The check catches a stale table and a stale settings page.
mkdir -p copy/docs
cp "$src/README.md" copy/
cp "$src/docs/settings.md" copy/docs/
expect 0 "$SG_GEN_DOCS" check copy
sed -i 's/^| `SOFTGPU_THREADS` .*$/| `SOFTGPU_THREADS` | old text |/' copy/README.md
expect 1 "$SG_GEN_DOCS" check copy
one_error "copy/README.md is stale: .*run \`cmake --build build --target update-docs\`$"
expect 0 "$SG_GEN_DOCS" update copy
has out "updated copy/README.md"
expect 0 "$SG_GEN_DOCS" check copy
cmp -s copy/README.md "$src/README.md" || fail "update did not restore the README"
echo "| \`cores\` | uint32_t | 7 | edited |" >>copy/docs/settings.md
expect 1 "$SG_GEN_DOCS" check copy
one_error "copy/docs/settings.md is stale"
sed -i '/generated from sim\/sg_env.def/d' copy/README.md
expect 2 "$SG_GEN_DOCS" check copy
has err "lacks the markers of the generated table"

# Every variable of sg_env.def is in the README, docs/settings.md and
# softgpu --help, and nothing else is.
sed -n 's/^SG_ENV(\([A-Z_0-9]*\),.*/SOFTGPU_\1/p' "$src/sim/sg_env.def" | sort >vars
[ "$(wc -l <vars)" -ge 5 ] || fail "read too few variables from sg_env.def"
sed -n 's/^| `\(SOFTGPU_[A-Z_0-9]*\)` .*/\1/p' "$src/README.md" | sort >readme_vars
cmp -s vars readme_vars || fail "README variables differ from sg_env.def: $(diff vars readme_vars | tr '\n' ' ')"
sed -n 's/^| `\(SOFTGPU_[A-Z_0-9]*\)` .*/\1/p' "$src/docs/settings.md" | sort >doc_vars
cmp -s vars doc_vars || fail "docs/settings.md variables differ from sg_env.def"
"$SOFTGPU" --help | sed -n 's/^  \(SOFTGPU_[A-Z_0-9]*\)\( .*\)*$/\1/p' | sort >help_vars
cmp -s vars help_vars || fail "softgpu --help variables differ from sg_env.def"

# The library reads them through sg_env_get only, so the .def is the list.
grep -rnE 'getenv *\( *"SOFTGPU_' "$src/icd" "$src/runtime" "$src/compiler" "$src/device" \
  "$src/sim" >direct || true
[ ! -s direct ] || fail "SOFTGPU_* read directly, not through sg_env_get (add it to sim/sg_env.def): $(cat direct)"
grep -rhoE 'sg_env_get\(SG_ENV_[A-Z_0-9]+\)' "$src/icd" "$src/runtime" "$src/compiler" \
  "$src/device" "$src/sim" | sed 's/.*SG_ENV_\([A-Z_0-9]*\))/SOFTGPU_\1/' | sort -u >read_vars
comm -13 vars read_vars >unknown
[ ! -s unknown ] || fail "read but not in sg_env.def: $(cat unknown)"
comm -23 vars read_vars >unread
[ ! -s unread ] || fail "in sg_env.def but never read by the library (an option that does nothing): $(cat unread)"
finish
