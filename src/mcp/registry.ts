// How the server is published: the MCP Registry's server.json (the npm package over stdio and the
// remote over streamable HTTP) and the MCP Bundle manifest for desktop hosts. Both are written from
// package.json and the settings table below; `npm run release:metadata` writes the checked-in copies
// and the tests fail when those drift from what this module makes.
import { DATA_SOURCES } from "../base/config.js";
import { SERVICE_NAME } from "../base/attribution.js";
import { PACKAGE, type PackageInfo } from "../base/package-info.js";
import { TOOLS } from "./server.js";

export const REGISTRY_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
export const NPM_REGISTRY_URL = "https://registry.npmjs.org";
/** The MCP Bundle manifest version written (0.3: user_config, compatibility and ${__dirname}). */
export const BUNDLE_MANIFEST_VERSION = "0.3";
/** The argument that makes the entry point speak MCP over stdin/stdout instead of serving HTTP. */
export const STDIO_FLAG = "--stdio";
/** The entry point inside the package (package.json `bin` points at the same file). */
export const ENTRY_POINT = "dist/src/main.js";

/** A setting a person installing the server may choose, and the environment variable it becomes. */
export interface UserSetting {
  env: string;
  /** The MCP Bundle `user_config` key. */
  key: string;
  title: string;
  description: string;
  default?: string;
  choices?: readonly string[];
  secret: boolean;
}

export const USER_SETTINGS: readonly UserSetting[] = [
  {
    env: "DATA_SOURCE",
    key: "data_source",
    title: "Data source",
    description: "auto (default): live forecasts when the upstreams answer, labelled seasonal norms otherwise; live: live forecasts only; offline: seasonal norms and predicted tides, no network.",
    default: "auto",
    choices: DATA_SOURCES,
    secret: false,
  },
  {
    env: "OPEN_METEO_API_KEY",
    key: "open_meteo_api_key",
    title: "Open-Meteo API key",
    description: "Optional commercial Open-Meteo key. Without one the free, non-commercial Open-Meteo API is used.",
    secret: true,
  },
];

/** server.json for the MCP Registry. With a public base URL the remote is that deployment; without
 *  one (the published copy) it is a template whose host the person connecting fills in. */
export function registryServerJson(base: string | null = null, pkg: PackageInfo = PACKAGE): Record<string, unknown> {
  const remote = base
    ? { type: "streamable-http", url: `${base}/mcp` }
    : {
        type: "streamable-http",
        url: "https://{host}/mcp",
        variables: { host: { description: `Host name of the ${SERVICE_NAME} deployment to connect to`, isRequired: true, placeholder: "ocean.example.com" } },
      };
  return {
    $schema: REGISTRY_SCHEMA_URL,
    name: pkg.mcpName,
    title: SERVICE_NAME,
    description: pkg.description,
    version: pkg.version,
    websiteUrl: base ?? pkg.homepage,
    repository: { url: pkg.repositoryUrl, source: "github" },
    packages: [
      {
        registryType: "npm",
        registryBaseUrl: NPM_REGISTRY_URL,
        identifier: pkg.name,
        version: pkg.version,
        runtimeHint: "npx",
        transport: { type: "stdio" },
        packageArguments: [{ type: "positional", value: STDIO_FLAG }],
        environmentVariables: USER_SETTINGS.map((s) => ({
          name: s.env,
          description: s.description,
          isRequired: false,
          isSecret: s.secret,
          ...(s.default === undefined ? {} : { default: s.default }),
          ...(s.choices === undefined ? {} : { choices: [...s.choices] }),
        })),
      },
    ],
    remotes: [remote],
  };
}

/** manifest.json for `mcpb pack`: node runs the packaged entry point with --stdio; each user
 *  setting becomes its environment variable. */
export function bundleManifest(pkg: PackageInfo = PACKAGE): Record<string, unknown> {
  return {
    manifest_version: BUNDLE_MANIFEST_VERSION,
    name: pkg.name,
    display_name: SERVICE_NAME,
    version: pkg.version,
    description: pkg.description,
    long_description:
      "Forecasts underwater visibility, swell, wind, tide and water temperature at named dive and snorkel spots for the next 7 days, " +
      "and ranks spots and days per activity. Tides and sun are always computed; weather and ocean inputs come from live public " +
      "upstreams when reachable and from labelled seasonal norms otherwise. Estimates for planning only, not a safety guarantee.",
    author: { name: pkg.author, url: pkg.repositoryUrl },
    repository: { type: "git", url: pkg.repositoryUrl },
    homepage: pkg.homepage,
    documentation: pkg.homepage,
    support: `${pkg.repositoryUrl}/issues`,
    license: pkg.license,
    keywords: pkg.keywords,
    server: {
      type: "node",
      entry_point: ENTRY_POINT,
      mcp_config: {
        command: "node",
        args: [`\${__dirname}/${ENTRY_POINT}`, STDIO_FLAG],
        env: Object.fromEntries(USER_SETTINGS.map((s) => [s.env, `\${user_config.${s.key}}`])),
      },
    },
    tools: TOOLS.map((t) => ({ name: t.name, description: t.config.description.split(/(?<=\.)\s/)[0] })),
    tools_generated: false,
    compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: pkg.engines.node } },
    user_config: Object.fromEntries(
      USER_SETTINGS.map((s) => [
        s.key,
        // A setting without a default would reach the server as the literal "${user_config.…}"; an
        // empty default arrives as an empty variable, which the configuration reads as unset.
        { type: "string", title: s.title, description: s.description, required: false, sensitive: s.secret, default: s.default ?? "" },
      ]),
    ),
  };
}
