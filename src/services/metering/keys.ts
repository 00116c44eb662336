// API keys for the planned metered mode (spec section 5): loaded from API_KEYS_FILE, looked up by
// their SHA-256 so the plain key is never kept, compared or logged after loading.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";

/** A key's prefix ends in `live_` or `test_` (e.g. `oc_live_…`); test keys are never billed. */
export const KEY_PATTERN = /^(?:[a-z0-9]+_)?(live|test)_[A-Za-z0-9_-]{8,200}$/;

const KeysFile = z.array(
  z
    .object({
      key: z.string().regex(KEY_PATTERN, "keys look like oc_live_… or oc_test_…"),
      status: z.enum(["active", "revoked"]),
      /** Decision calls included before 402 free_allotment_exhausted; absent = unlimited. */
      allotment: z.number().int().min(0).optional(),
      label: z.string().optional(),
    })
    .strict(),
);

export interface KeyRecord {
  /** First 12 hex digits of the key's SHA-256: what logs and counters see. */
  id: string;
  status: "active" | "revoked";
  allotment: number | null;
  test: boolean;
}

export function keyHash(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export class KeyRegistry {
  readonly #byHash = new Map<string, KeyRecord>();

  constructor(entries: z.infer<typeof KeysFile>) {
    for (const e of entries) {
      const hash = keyHash(e.key);
      this.#byHash.set(hash, {
        id: hash.slice(0, 12),
        status: e.status,
        allotment: e.allotment ?? null,
        test: KEY_PATTERN.exec(e.key)![1] === "test",
      });
    }
  }

  static load(file: string): KeyRegistry {
    const parsed = KeysFile.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    return new KeyRegistry(parsed.data);
  }

  lookup(key: string): KeyRecord | null {
    return this.#byHash.get(keyHash(key)) ?? null;
  }

  get size(): number {
    return this.#byHash.size;
  }
}

/**
 * The key a request presents in `Authorization: Bearer …` or `X-Service-Key`, if any. What follows
 * "Bearer" is taken whole, so `Bearer <key> extra` matches no key (invalid_key, a failed attempt)
 * rather than counting as no key; two different keys in the two headers are presented together and
 * match none either, so a valid key never silently wins over a revoked or unknown one.
 */
export function presentedKey(headers: { authorization?: string | null; "x-service-key"?: string | null }): string | null {
  const auth = headers.authorization?.trim() ?? "";
  const scheme = /^Bearer(?:\s+|$)/i.exec(auth);
  const bearer = scheme ? auth.slice(scheme[0].length) : "";
  const header = headers["x-service-key"]?.trim() ?? "";
  if (bearer && header && bearer !== header) return `${bearer} ${header}`;
  return bearer || header || null;
}

/** Query parameters a client might put a key in; keys are never accepted there. */
export const KEY_QUERY_PARAMS = ["key", "api_key", "apikey", "api-key", "x-service-key", "access_token", "token"];
