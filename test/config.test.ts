import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/base/config.js";

describe("configuration", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "0.0.0.0",
      publicBaseUrl: "http://localhost:3000",
      dataSource: "auto",
      logLevel: "info",
      appLinkTemplate: "http://localhost:3000/spots/{spot}?date={date}&activity={activity}",
      mcpAllowedHosts: ["localhost", "127.0.0.1", "[::1]"],
      mcpAllowedOrigins: ["localhost", "127.0.0.1", "[::1]"],
      mcpReplay: true,
      runtime: { heapGrowingPercent: 10, idleCompaction: true, intern: true },
      upstreams: {
        marineUrl: "https://marine-api.open-meteo.com/v1/marine",
        forecastUrl: "https://api.open-meteo.com/v1/forecast",
        openMeteoApiKey: null,
        coopsUrl: "https://api.tidesandcurrents.noaa.gov/api/prod/datagetter",
        erddapUrl: "https://coastwatch.noaa.gov/erddap",
        kd490Datasets: ["noaacwNPPVIIRSkd490Daily", "noaacwNPPN20S3AkdSCIDINEOF2kmDaily"],
        timeoutMs: 8000,
        erddapTimeoutMs: 30_000,
        openMeteo: { concurrency: 1, perMinute: 600, perHour: 5000, perDay: 10_000 },
        breakerFailures: 3,
        breakerCooldownMs: 120_000,
        cacheBytes: 32 * 1024 * 1024,
      },
      rateLimits: {
        factsPerHour: 300,
        factsPerDay: 2000,
        spotsPerHour: 30,
        spotsPerDay: 100,
        decisionsBurst: 20,
        decisionsWindowS: 10,
        rendersPerHour: 120,
        failedKeys: 20,
        maxCallers: 50_000,
        aiFetcherMultiplier: 10,
      },
      render: { concurrency: Math.max(1, availableParallelism() - 1), queue: 8 },
      connections: { max: 10_000, perIp: 256, requestsPerSecondPerIp: 128, requestBurstPerIp: 64 },
      trustProxy: false,
      redisUrl: null,
      validationScoring: true,
      auth: { mode: "open", keysFile: null, upgradeUrl: "http://localhost:3000/docs#keys" },
    });
  });
  it("reads the upstream settings", () => {
    const u = loadConfig({ ERDDAP_URL: "http://127.0.0.1:4010/erddap/", ERDDAP_KD490_DATASETS: "a,b_c", BREAKER_COOLDOWN_S: "0.5", UPSTREAM_CACHE_MB: "2" }).upstreams;
    expect(u).toMatchObject({ erddapUrl: "http://127.0.0.1:4010/erddap", kd490Datasets: ["a", "b_c"], breakerCooldownMs: 500, cacheBytes: 2 * 1024 * 1024 });
  });
  it("sends a commercial Open-Meteo key to the customer- hosts unless the URLs are set", () => {
    expect(loadConfig({ OPEN_METEO_API_KEY: "k" }).upstreams).toMatchObject({
      marineUrl: "https://customer-marine-api.open-meteo.com/v1/marine",
      forecastUrl: "https://customer-api.open-meteo.com/v1/forecast",
      openMeteoApiKey: "k",
    });
    const own = loadConfig({ OPEN_METEO_API_KEY: "k", OPEN_METEO_MARINE_URL: "http://127.0.0.1:4010/v1/marine" }).upstreams;
    expect(own).toMatchObject({ marineUrl: "http://127.0.0.1:4010/v1/marine", forecastUrl: "https://customer-api.open-meteo.com/v1/forecast" });
  });
  it("derives the public address from PORT and strips a trailing slash from PUBLIC_BASE_URL", () => {
    expect(loadConfig({ PORT: "8080" }).publicBaseUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_BASE_URL: "https://ocean.example.com/" }).publicBaseUrl).toBe("https://ocean.example.com");
  });
  it("lets /mcp accept the public host, loopback and the configured extras", () => {
    const c = loadConfig({ PUBLIC_BASE_URL: "https://ocean.example.com", MCP_ALLOWED_HOSTS: "ocean-internal, OCEAN.lan", MCP_ALLOWED_ORIGINS: "claude.ai" });
    expect(c.mcpAllowedHosts).toEqual(["ocean.example.com", "localhost", "127.0.0.1", "[::1]", "ocean-internal", "ocean.lan"]);
    expect(c.mcpAllowedOrigins).toEqual(["ocean.example.com", "localhost", "127.0.0.1", "[::1]", "claude.ai"]);
  });
  it("reads the proxy setting and requires a keys file in metered mode", () => {
    // "true" would make the client-chosen leftmost X-Forwarded-For address the caller.
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY="true" would let any client choose its address/);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).trustProxy).toBe("loopback, 10.0.0.0/8");
    expect(() => loadConfig({ AUTH_MODE: "metered" })).toThrow(/API_KEYS_FILE is required/);
    expect(loadConfig({ AUTH_MODE: "metered", API_KEYS_FILE: "/etc/keys.json" }).auth.mode).toBe("metered");
    expect(() => loadConfig({ REDIS_URL: "http://x" })).toThrow(/REDIS_URL=/);
  });
  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATA_SOURCE: "" }).port).toBe(3000);
  });
  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATA_SOURCE: "sometimes" }, "DATA_SOURCE"],
    [{ PUBLIC_BASE_URL: "ftp://x" }, "PUBLIC_BASE_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ OPEN_METEO_MARINE_URL: "marine" }, "OPEN_METEO_MARINE_URL"],
    [{ COOPS_URL: "ftp://noaa" }, "COOPS_URL"],
    [{ ERDDAP_KD490_DATASETS: "a,,b" }, "ERDDAP_KD490_DATASETS"],
    [{ UPSTREAM_TIMEOUT_MS: "0" }, "UPSTREAM_TIMEOUT_MS"],
    [{ BREAKER_FAILURES: "-1" }, "BREAKER_FAILURES"],
    [{ UPSTREAM_CACHE_MB: "lots" }, "UPSTREAM_CACHE_MB"],
  ])("rejects %o with a message naming %s", (env, key) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${key}=`));
  });
});
