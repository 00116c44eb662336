// A fixed document served many times (/openapi.json, /docs): serialised, hashed and compressed
// once, then answered with a strong ETag (If-None-Match → 304) in brotli or gzip when the client
// accepts them. /openapi.json is about 90 KB of JSON; compressed it is a sixth of that.
import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, Response } from "express";
import { etagMatches } from "./caching.js";

export class CompressedBody {
  readonly body: Buffer;
  readonly etag: string;
  #gzip: Buffer | undefined;
  #br: Buffer | undefined;

  constructor(text: string) {
    this.body = Buffer.from(text);
    this.etag = `"${createHash("sha256").update(this.body).digest("base64url").slice(0, 27)}"`;
  }

  /** Sends the body (or 304) with the given type and Cache-Control, compressed as the client allows. */
  send(req: Request, res: Response, type: string, cacheControl: string): void {
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    // Each encoding is its own representation, so each has its own strong ETag (RFC 9110 §8.8.3).
    const etag = encoding === "identity" ? this.etag : `${this.etag.slice(0, -1)}-${encoding}"`;
    res.setHeader("ETag", etag);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Cache-Control", cacheControl);
    if (etagMatches(req.headers["if-none-match"], etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type(type);
    if (encoding === "br") {
      this.#br ??= brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
      res.setHeader("Content-Encoding", "br");
      res.send(this.#br);
    } else if (encoding === "gzip") {
      this.#gzip ??= gzipSync(this.body, { level: 9 });
      res.setHeader("Content-Encoding", "gzip");
      res.send(this.#gzip);
    } else res.send(this.body);
  }
}

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): brotli, then gzip, when the
 * client gives it a weight above 0 by name or through `*`; otherwise the body as it is. `br;q=0`
 * refuses brotli; an absent header gets the body as it is.
 */
export function chooseEncoding(header: string | undefined): "br" | "gzip" | "identity" {
  if (!header) return "identity";
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  if (weightOf("br") > 0) return "br";
  if (weightOf("gzip") > 0) return "gzip";
  return "identity";
}
