import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

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
    });
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
  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATA_SOURCE: "" }).port).toBe(3000);
  });
  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATA_SOURCE: "sometimes" }, "DATA_SOURCE"],
    [{ PUBLIC_BASE_URL: "ftp://x" }, "PUBLIC_BASE_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  ])("rejects %o with a message naming %s", (env, key) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${key}=`));
  });
});
