#!/bin/sh
# A tiny calculator: `sh calc.sh OP A B` runs ops/OP.sh with A and B.
op="$1"
shift
. "$(dirname "$0")/ops/$op.sh"
"$op" "$@"
