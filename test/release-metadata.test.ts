// What gets published: the npm package's metadata and file list, the MCP Registry's server.json and
// the MCP Bundle manifest. The checked-in server.json and manifest.json must be exactly what
// package.json makes (npm run release:metadata), and each must pass its own published schema.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import formats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ENV_VARS } from "../src/base/config.js";
import { bundleManifest, ENTRY_POINT, registryServerJson, USER_SETTINGS } from "../src/mcp/registry.js";
import { SERVER_INFO, TOOLS } from "../src/mcp/server.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { registryValidator } from "./helpers/registry-schema.js";

const readJson = (name: string) => JSON.parse(readFileSync(join(PROJECT_ROOT, name), "utf8")) as Record<string, unknown>;
const pkg = readJson("package.json") as Record<string, unknown> & { files: string[]; bin: Record<string, string>; scripts: Record<string, string> };

describe("npm package", () => {
  it("is publishable, names its registry entry and runs the same entry point as the bundle", () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg).toMatchObject({ name: "ocean-conditions", license: "MIT", mcpName: SERVER_INFO.name, version: SERVER_INFO.version, engines: { node: ">=20.19" } });
    expect(pkg.bin).toEqual({ "ocean-conditions": ENTRY_POINT });
    expect(readFileSync(join(PROJECT_ROOT, "src/main.ts"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    // The tarball is built at prepack, from scratch.
    expect(pkg.scripts.prepack).toBe("node scripts/clean-build.mjs");
    expect(pkg.scripts.prepare).toBe("node scripts/ensure-built.mjs");
  });

  it("prepare/prestart use the existing build where TypeScript is absent, and say what to run without one", () => {
    // A production layout: the script, a package.json and no node_modules/typescript.
    const dir = mkdtempSync(join(tmpdir(), "ensure-built-"));
    try {
      mkdirSync(join(dir, "scripts"));
      copyFileSync(join(PROJECT_ROOT, "scripts/ensure-built.mjs"), join(dir, "scripts/ensure-built.mjs"));
      writeFileSync(join(dir, "package.json"), "{}");
      const run = () => spawnSync(process.execPath, [join(dir, "scripts/ensure-built.mjs")], { encoding: "utf8" });
      const missing = run();
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain("npm ci && npm run build");
      mkdirSync(join(dir, "dist/src"), { recursive: true });
      writeFileSync(join(dir, "dist/src/main.js"), "");
      const built = run();
      expect(built.status, built.stderr).toBe(0);
      expect(built.stderr).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("packs the compiled code, the embedded data and the templates, and no sources or tests", () => {
    // --ignore-scripts: list what `files` selects without rebuilding; dist/ may be absent here.
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PROJECT_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const paths = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "server.json",
      "ui/card.html",
      ".well-known/mcp/server-card.json",
      "data/tide-stations.json",
      "data/protected-areas.json",
      "data/map/land-110m.json",
    ]) {
      expect(paths, needed).toContain(needed);
    }
    expect(paths.some((p) => p.startsWith("data/regions/"))).toBe(true);
    expect(paths.some((p) => p.startsWith("data/climatology/"))).toBe(true);
    // prepare runs the build check in a tarball or git install too; it uses the shipped build there.
    expect(paths).toContain("scripts/ensure-built.mjs");
    const unwanted = paths.filter((p) => /^(src|test|scripts|bench|tools)\//.test(p) || p.endsWith(".ts") || p.includes("tsbuildinfo"));
    expect(unwanted).toEqual(["scripts/ensure-built.mjs"]);
  });
});

describe("server.json for the MCP Registry", () => {
  const checkedIn = readJson("server.json");

  it("is what package.json makes, and validates against the registry's schema", () => {
    expect(checkedIn).toEqual(registryServerJson());
    const validate = registryValidator();
    expect(validate(checkedIn), JSON.stringify(validate.errors)).toBe(true);
  });

  it("lists the npm package over stdio and the remote over streamable HTTP", () => {
    expect(checkedIn).toMatchObject({
      name: pkg.mcpName,
      version: pkg.version,
      description: pkg.description,
      packages: [{ registryType: "npm", identifier: pkg.name, version: pkg.version, transport: { type: "stdio" }, packageArguments: [{ type: "positional", value: "--stdio" }] }],
      remotes: [{ type: "streamable-http", url: "https://{host}/mcp", variables: { host: { isRequired: true } } }],
    });
    const env = (checkedIn.packages as { environmentVariables: { name: string; isSecret: boolean }[] }[])[0]!.environmentVariables;
    expect(env.map((e) => [e.name, e.isSecret])).toEqual([
      ["DATA_SOURCE", false],
      ["OPEN_METEO_API_KEY", true],
    ]);
  });

  it("fails validation in the ways the registry rejects, so the check above means something", () => {
    const validate = registryValidator();
    // The template the server used to check in: placeholders are neither a URI nor an http(s) URL.
    expect(validate({ ...checkedIn, websiteUrl: "{{PUBLIC_BASE_URL}}" })).toBe(false);
    expect(validate({ ...checkedIn, remotes: [{ type: "streamable-http", url: "{{PUBLIC_BASE_URL}}/mcp" }] })).toBe(false);
    expect(validate({ ...checkedIn, name: "ocean-conditions" })).toBe(false);
    const { version: _v, ...unversioned } = checkedIn;
    expect(validate(unversioned)).toBe(false);
  });
});

describe("MCP Bundle manifest", () => {
  const manifest = readJson("manifest.json") as Record<string, unknown> & {
    server: { entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
    user_config: Record<string, { default: string; sensitive: boolean }>;
    tools: { name: string }[];
  };

  it("is what package.json makes, and validates against the mcpb 0.3 manifest schema", () => {
    expect(manifest).toEqual(bundleManifest());
    const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, "node_modules/@anthropic-ai/mcpb/dist/mcpb-manifest-v0.3.schema.json"), "utf8"));
    const ajv = new Ajv({ strict: false, allErrors: true });
    (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...manifest, server: { ...manifest.server, type: "deno" } })).toBe(false);
  });

  it("runs the packaged entry point over stdio with the user's settings as our environment variables", () => {
    expect(manifest.server.entry_point).toBe(ENTRY_POINT);
    expect(manifest.server.mcp_config).toEqual({
      command: "node",
      args: [`\${__dirname}/${ENTRY_POINT}`, "--stdio"],
      env: { DATA_SOURCE: "${user_config.data_source}", OPEN_METEO_API_KEY: "${user_config.open_meteo_api_key}" },
    });
    for (const s of USER_SETTINGS) expect(ENV_VARS).toContain(s.env);
    expect(manifest.user_config.data_source).toMatchObject({ default: "auto", sensitive: false });
    // Left empty, the key must arrive as "" (read as unset), never as the literal placeholder.
    expect(manifest.user_config.open_meteo_api_key).toMatchObject({ default: "", sensitive: true });
    expect(manifest.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
  });
});
