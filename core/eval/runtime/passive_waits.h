#pragma once
// libgomp (the OpenMP runtime of oneDNN and of the evaluator's own loops) reads OMP_WAIT_POLICY once, when the
// program is loaded, before main(): setting it from main() is too late. Its default spins idle threads for a while
// before they sleep, and on a machine where other work shares the cores the spinners are descheduled in the middle
// of parallel regions: two threads ran 4.5-25x slower than one under a load of 7.5 (bench_eval). A program that
// runs the evaluator calls this first thing in main(): when OMP_WAIT_POLICY is unset it sets it to passive and
// executes itself again (a user's own setting is kept); it returns when the variable was set already, or when the
// re-execution failed (the program then goes on with libgomp's default).
namespace fb::eval {

void reexecWithPassiveWaits(char** argv);

}  // namespace fb::eval
