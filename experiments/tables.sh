#!/usr/bin/env bash
# Prints the tables of issue 6 in experiments/NOTEBOOK.md from the result files
# under experiments/runs (experiments/table reads only those), and draws the curves
# they link to into experiments/img/curves/. Run it after experiments/fast.sh and the
# experiments/paper.sh commands that RESULTS lists.
set -euo pipefail
cd "$(dirname "$0")/.."
# The runs of experiments/targets.sh: the best recipe of each row.
targets='^(letter-64-20-fastlr10wd01|letter-128-30-fastlr10|letter-511-50-fastlr10|connect4-8-10-wd05e240st20|connect4-255-10-wd05e360st20lr003|mnist-64-20-wd01|mnist-255-50-fast60wd01|mnistcnn-16-8-fast)-s[0-9]+$'
table() { # TITLE REGEXP
  echo "#### $1"
  echo
  echo "\`go -C experiments run ./table -match '$2' -curves img/curves\`"
  echo
  go -C experiments run ./table -runs runs -match "$2" -curves img/curves 2>/dev/null
  echo
}
table "Best recipe per row (experiments/targets.sh), trained" "$targets"
table "Fast recipe (--preset fast)" '-(fast|fast60|fastlr10|fastlr01|wd01|wd1|fast60wd01|fastlr01wd01|fastlr01wd1|255-10-wd05|wd05e240|fastlr10wd01|wd05e240st20|wd05e240st30|wd05e360st20|wd05e360st20lr003|wd05e480st20|fastlr10wd01st20|16-8-st20|wd01st20)(-s[0-9]+)?$'
table "Authors' recipe (--preset paper)" '^(letter-64-20|letter-128-30|connect4-8-10|connect4-255-10|mnist-64-20|mnistcnn-16-8)(-s[0-9]+)?$'
table "Recipe search, Letter 64/20" '^letter-64-20-(cos|c03|oldfast|anneal|std|sh)'
table "Weight decay search, MNIST 64/20 (seed 1)" '^mnist-64-20-(fast|wd003|wd01|wd03)-s1$'
table "Weight decay search, Connect-4 8/10" '^connect4-8-10-(fast-s1|(wd001|wd01|wd03|wd1|wd3|wd1e0)-s1|lr01wd[13]-s[0-9])$'
search() { # TITLE NAME
  echo "#### $1"
  echo
  echo "\`PRINT=1 MD=1 experiments/searches.sh $2\` (validation rows only)"
  echo
  # A search's runs may predate 2026-11-23, when git began to keep result
  # files (experiments/NOTEBOOK.md): without them there is nothing to print.
  local out
  if out=$(PRINT=1 MD=1 experiments/searches.sh "$2" 2>/dev/null); then
    echo "$out"
  else
    echo "(not printed: some of its runs have no result files under experiments/runs)"
  fi
  echo
}
search "Recipe search on validation, Connect-4 8/10" connect4-wd
table "The same runs on test (not used for the choice), Connect-4 8/10" '^connect4-8-10-(wd05|wd2|wd1e240|wd1b32|wd1a4|wd1t02|wd05b32|wd05e240|wd03|wd1b16|wd03b32|wd05e480|wd03e240|wd05b32e240)-s[0-9]+$'
search "Weight decay search on validation, Letter 64/20" letter-wd
search "Straight-through search on validation, Connect-4 8/10" connect4-st
table "The same runs on test (not used for the choice), Connect-4 8/10, straight-through" '^connect4-8-10-wd05e240st(10|20|30|50)-s[1-3]$'
# The graphs of restarts 1, 2, ... (experiments/select.sh) are in the selection
# table, not in the refined ones.
restarts='-r[0-9]+-s[0-9]+$'
refined() { # TITLE REGEXP [TAG]
  echo "#### $1"
  echo
  echo "\`go -C experiments run ./table -refined -match '$2' -skip '$restarts'${3:+ -refine-tag $3}\`"
  echo
  go -C experiments run ./table -runs runs -refined -match "$2" -skip "$restarts" ${3:+-refine-tag "$3"} 2>/dev/null
  echo
}
refined "Best recipe per row (experiments/targets.sh), refined" "$targets"
refined "Refining the hard walk (experiments/refine.sh)" '.'
refined "Refining at --ridge 0.001 (RIDGE=0.001 experiments/refine.sh)" '.' -ridge0.001
refined "Refining at --ridge 0.1 (RIDGE=0.1 experiments/refine.sh)" '.' -ridge0.1
refined "Refining with --polish (POLISH=1 experiments/refine.sh)" '.' -polish
st='^(connect4-8-10-wd05e240(st20)?|connect4-255-10-wd05e(240(st20|st30)?|360st20)|letter-64-20-fastlr10wd01(st20)?|mnistcnn-16-8-(fast|st20)|mnist-64-20-wd01(st20)?)-s[0-9]+$'
table "Straight-through, before and after: trained (each recipe without and with --straight-through 0.2)" "$st"
refined "Straight-through, before and after: refined" "$st"
table "Closing the soft/hard gap, Connect-4" '^connect4-(8-10-(anneal|lr0(03|1|1a5|1a5t05|1b32|1ca3|1fi|1nr)-|sh|ng|b32|e200|t01)|255-10-fast30)'
echo "#### Several graphs, one kept (experiments/select.sh)"
echo
echo "\`go -C experiments run ./table -selected\`"
echo
go -C experiments run ./table -runs runs -selected 2>/dev/null
echo
