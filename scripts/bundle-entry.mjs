// The entry point as one file: src/main.ts and everything it imports, dependencies included, bundled
// by esbuild into dist/src/main.js, where tsc's output would have been (tsconfig.build.json leaves
// main.ts out). Node then reads, resolves and compiles one module at start instead of about 600:
// with the two start-up changes made beside it (src/main.ts, src/answers/tool.ts), start to the first
// answer went from about 1.3 s to 1.0 s (BENCHMARKS.md).
// The rest of dist/ is tsc's output as before: the render worker (a thread with its own modules)
// loads from it.
//
// Whitespace and comments are dropped and the text is plain ASCII, because V8 keeps a module's
// whole source in the heap for as long as the process runs: one character above U+00FF anywhere
// (a dash in a comment, an ellipsis in a template) makes it a two-byte string. Laid out and
// commented, with such characters, the bundle held 6.6 MB of heap plus 0.7 MB of line-end tables;
// as it is built now, 2.7 MB (BENCHMARKS.md). esbuild escapes other characters in strings itself
// (`charset`), but cannot in a template literal without changing its `raw` text, so template
// literals are compiled to concatenation. Names are kept (identifiers are not minified), so a stack
// trace still names its functions; its positions are on a few long lines, and the source map
// beside it maps them to the TypeScript files' lines with `node --enable-source-maps`.
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
    minifyWhitespace: true,
    charset: "ascii",
    supported: { "template-literal": false },
    logLevel: "warning",
    // A native module (the render worker loads it, not this file); ioredis is required at run time
    // only when REDIS_URL is set (src/base/redis.ts).
    external: ["@resvg/resvg-js", "ioredis"],
    // CommonJS dependencies (Express and its own) call require; an ES module has none of its own.
    banner: { js: 'import { createRequire as __entryRequire } from "node:module";\nconst require = __entryRequire(import.meta.url);' },
  });
}

if (process.argv[1] === new URL(import.meta.url).pathname) await bundleEntry(new URL("..", import.meta.url).pathname);
