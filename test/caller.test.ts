// Who a caller is, as the rate limits count them (src/services/metering/caller.ts, keys.ts): the address an
// IPv4 or IPv6 client is counted by, user-triggered AI fetchers, the key a request presents, and
// the key registry (looked up by hash, test keys flagged, a bad file refused with its reasons).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aiFetcherOf, callerAddress } from "../src/services/metering/caller.js";
import { KEY_PATTERN, keyHash, KeyRegistry, presentedKey } from "../src/services/metering/keys.js";

describe("the address a caller is counted by", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:203.0.113.7", "203.0.113.7"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:0db8:0001:0002:0003:0004:0005:0006", "2001:db8:1:2::/64"],
    ["2001:DB8:A:B:1:2:3:4", "2001:db8:a:b::/64"],
    ["2001:db8:1::", "2001:db8:1:0::/64"],
    ["2001:db8:1:2:3::4", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["2001:db8", "2001:db8:0:0::/64"],
    ["2001:zzzz:1:2::1", "2001:0:1:2::/64"],
    // The zeros "::" stands for go where it stands, however many groups follow it.
    ["2001::1:2:3:4:5:6", "2001:0:1:2::/64"],
    ["::1:2:3:4:5:6:7", "0:1:2:3::/64"],
    ["::ffff:198.51.100.23", "198.51.100.23"],
    // Only a whole IPv4-mapped address is read as IPv4; a group that is not 1–4 hex digits reads as 0.
    ["1::ffff:203.0.113.7", "1:0:0:0::/64"],
    ["::ffff:203.0.113.7x", "0:0:0:0::/64"],
    ["2001:x123:1:2::1", "2001:0:1:2::/64"],
    ["2001:12345:1:2::1", "2001:0:1:2::/64"],
  ])("counts %s as %s", (ip, counted) => {
    expect(callerAddress(ip)).toBe(counted);
  });
});

describe("AI fetchers acting for a person", () => {
  it("are recognised by their User-Agent token, crawlers and browsers are not", () => {
    expect(aiFetcherOf("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; Claude-User/1.0")).toBe("Claude-User");
    expect(aiFetcherOf("Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)")).toBe("ChatGPT-User");
    expect(aiFetcherOf("Perplexity-User/1.0")).toBe("Perplexity-User");
    expect(aiFetcherOf("MistralAI-User/1.0")).toBe("MistralAI-User");
    expect(aiFetcherOf("Mozilla/5.0 (compatible; ClaudeBot/1.0)")).toBeNull();
    expect(aiFetcherOf("Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")).toBeNull();
    expect(aiFetcherOf("")).toBeNull();
    expect(aiFetcherOf(undefined)).toBeNull();
  });
});

describe("keys", () => {
  it("reads a key from Authorization: Bearer or X-Service-Key; two different keys, or a bearer with more after the key, match no key", () => {
    expect(presentedKey({ authorization: "Bearer oc_live_abcdefgh12" })).toBe("oc_live_abcdefgh12");
    expect(presentedKey({ authorization: "bearer  oc_live_abcdefgh12  " })).toBe("oc_live_abcdefgh12");
    expect(presentedKey({ "x-service-key": "  oc_test_abcdefgh12 " })).toBe("oc_test_abcdefgh12");
    expect(presentedKey({ authorization: "Bearer oc_live_abcdefgh12", "x-service-key": "oc_live_abcdefgh12" })).toBe("oc_live_abcdefgh12");
    expect(presentedKey({ authorization: "Bearer oc_live_abcdefgh12", "x-service-key": "oc_test_abcdefgh12" })).toBe("oc_live_abcdefgh12 oc_test_abcdefgh12");
    expect(presentedKey({ authorization: "Basic dXNlcjpwYXNz", "x-service-key": "oc_test_abcdefgh12" })).toBe("oc_test_abcdefgh12");
    expect(presentedKey({ authorization: "Bearer two words" })).toBe("two words");
    expect(presentedKey({ authorization: "Bearer " })).toBeNull();
    expect(presentedKey({ authorization: "NotBearer oc_live_abcdefgh12" })).toBeNull();
    expect(presentedKey({ "x-service-key": "   " })).toBeNull();
    expect(presentedKey({})).toBeNull();
  });

  it("accepts keys written <prefix>_live_… or <prefix>_test_…, the prefix optional, and nothing around them", () => {
    for (const ok of ["oc_live_abcdefgh12", "oc_test_abcdefgh12", "live_abcdefgh12", "acme2_live_AB-cd_efgh"]) expect(KEY_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ["Oc_live_abcdefgh12", "x.oc_live_abcdefgh12", "oc_live_abcdefgh12!", "oc_live_short", "oc_prod_abcdefgh12", " oc_live_abcdefgh12"]) {
      expect(KEY_PATTERN.test(bad), bad).toBe(false);
    }
  });

  it("looks keys up by their SHA-256, never keeping the key, and flags test keys", () => {
    const dir = mkdtempSync(join(tmpdir(), "keys-"));
    const file = join(dir, "keys.json");
    writeFileSync(
      file,
      JSON.stringify([
        { key: "oc_live_abcdefgh12", status: "active", allotment: 3 },
        { key: "oc_test_abcdefgh12", status: "revoked", label: "ci" },
      ]),
    );
    const reg = KeyRegistry.load(file);
    expect(reg.size).toBe(2);
    expect(reg.lookup("oc_live_abcdefgh12")).toEqual({ id: keyHash("oc_live_abcdefgh12").slice(0, 12), status: "active", allotment: 3, test: false });
    expect(reg.lookup("oc_test_abcdefgh12")).toEqual({ id: keyHash("oc_test_abcdefgh12").slice(0, 12), status: "revoked", allotment: null, test: true });
    expect(reg.lookup("oc_live_abcdefgh13")).toBeNull();
    expect(keyHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    writeFileSync(
      file,
      JSON.stringify([
        { key: "sk_nope", status: "active" },
        { key: "oc_live_abcdefgh12", status: "paused" },
      ]),
    );
    expect(() => KeyRegistry.load(file)).toThrow(`${file}: 0.key: keys look like oc_live_… or oc_test_…; 1.status: `);
  });
});
