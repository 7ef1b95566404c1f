#!/bin/sh
# The scripted coding agent of the run scenarios (retake.toml [executor]): it writes the
# operation of task $RETAKE_TASK_ID, registers it in calc.sh and says what it did. MODE, its
# first argument, makes it misbehave:
#   stubborn  leaves a TODO and claims "Done." (the judge never passes it: escalation)
#   hold-N    before task N, waits while the scenario runner's hold file exists
#             ($RETAKE_SCENARIO_HOLD: a Lead-crash scenario kills the Lead meanwhile)
#   written-hold-N  the same wait, but after task N's change is written (before it reports)
mode="${1:-good}"
case "$RETAKE_TASK_ID" in
  1) name=sub; op='-'; word=difference ;;
  *) name=mul; op='*'; word=product ;;
esac
if [ "$mode" = "hold-$RETAKE_TASK_ID" ] && [ -n "${RETAKE_SCENARIO_HOLD:-}" ]; then
  while [ -f "$RETAKE_SCENARIO_HOLD" ]; do sleep 0.1; done
fi
if [ "$mode" = stubborn ]; then
  printf '# The %s of two numbers.\n%s() {\n    # TODO: implement\n    echo 0\n}\n' "$word" "$name" > "ops/$name.sh"
  echo "Done."
  exit 0
fi
printf '# The %s of two numbers.\n%s() {\n    echo $(($1 %s $2))\n}\n' "$word" "$name" "$op" > "ops/$name.sh"
# Both tasks own calc.sh (so they run one after the other): it lists the operations it offers.
grep -q "^# offers: $name\$" calc.sh || printf '# offers: %s\n' "$name" >> calc.sh
if [ "$mode" = "written-hold-$RETAKE_TASK_ID" ] && [ -n "${RETAKE_SCENARIO_HOLD:-}" ]; then
  while [ -f "$RETAKE_SCENARIO_HOLD" ]; do sleep 0.1; done
fi
echo "Wrote ops/$name.sh with $name (the $word of two numbers) and listed it in calc.sh."
