// What package.json says about us: the one place the package name, version, registry name, licence
// and repository are written. The server's identity, server.json and the MCP Bundle manifest read it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { PROJECT_ROOT } from "./paths.js";

const PackageJson = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().min(1).max(100),
  /** The MCP Registry name; the registry checks it against server.json to prove the npm package is ours. */
  mcpName: z.string().regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  license: z.string().min(1),
  author: z.string().min(1),
  homepage: z.url(),
  repository: z.object({ type: z.literal("git"), url: z.string().regex(/^git\+https:\/\/.+\.git$/) }),
  engines: z.object({ node: z.string().min(1) }),
  keywords: z.array(z.string()),
});

export type PackageInfo = z.infer<typeof PackageJson> & {
  /** The repository's browsable address (https://github.com/owner/name). */
  repositoryUrl: string;
};

export function readPackageInfo(file = join(PROJECT_ROOT, "package.json")): PackageInfo {
  const pkg = PackageJson.parse(JSON.parse(readFileSync(file, "utf8")));
  return { ...pkg, repositoryUrl: pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "") };
}

export const PACKAGE = readPackageInfo();
