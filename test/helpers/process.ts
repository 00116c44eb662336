// How tests start the service as a process of its own: node on the compiled entry point that `npm
// start` runs (without its node flags and allocator settings, which the bench measures), with the
// build made current once before the suite (test/helpers/global-setup.ts).
// Compiling the TypeScript in each process instead (tsx) cost a few seconds of CPU per process.

/** Arguments for `spawn(process.execPath, SERVICE_ARGS, { cwd: PROJECT_ROOT })`; add `--stdio` for the stdio transport. */
export const SERVICE_ARGS: readonly string[] = ["dist/src/main.js"];
