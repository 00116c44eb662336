// The entry point as one file: src/main.ts and everything it imports, dependencies included, bundled
// by esbuild into dist/src/main.js, where tsc's output would have been (tsconfig.build.json leaves
// main.ts out). Node then reads, resolves and compiles one module at start instead of about 600:
// with the two start-up changes made beside it (src/main.ts, src/mcp/tool.ts), start to the first
// answer went from about 1.3 s to 1.0 s (BENCHMARKS.md).
// The rest of dist/ is tsc's output as before: the render worker (a thread with its own modules)
// loads from it. Not minified, so a stack trace names the functions; the source map beside it maps
// them back to the TypeScript files' lines with `node --enable-source-maps`.
import { join } from "node:path";

/** Bundles `src/main.ts` of the project at `root` into `outfile` (esbuild, a dev dependency). */
export async function bundleEntry(root, outfile = join(root, "dist/src/main.js")) {
  const { buildSync } = await import("esbuild");
  buildSync({
    entryPoints: [join(root, "src/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    // Positions only: with the sources' text the map was 6.9 MB, which `--enable-source-maps` holds
    // in memory.
    sourcesContent: false,
    logLevel: "warning",
    // A native module (the render worker loads it, not this file); ioredis is required at run time
    // only when REDIS_URL is set (src/redis.ts).
    external: ["@resvg/resvg-js", "ioredis"],
    // CommonJS dependencies (Express and its own) call require; an ES module has none of its own.
    banner: { js: 'import { createRequire as __entryRequire } from "node:module";\nconst require = __entryRequire(import.meta.url);' },
  });
}

if (process.argv[1] === new URL(import.meta.url).pathname) await bundleEntry(new URL("..", import.meta.url).pathname);
