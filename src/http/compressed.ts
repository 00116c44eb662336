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
    res.setHeader("ETag", this.etag);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Cache-Control", cacheControl);
    if (etagMatches(req.headers["if-none-match"], this.etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type(type);
    const accepts = req.headers["accept-encoding"] ?? "";
    if (/\bbr\b/.test(accepts)) {
      this.#br ??= brotliCompressSync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
      res.setHeader("Content-Encoding", "br");
      res.send(this.#br);
    } else if (/\bgzip\b/.test(accepts)) {
      this.#gzip ??= gzipSync(this.body, { level: 9 });
      res.setHeader("Content-Encoding", "gzip");
      res.send(this.#gzip);
    } else res.send(this.body);
  }
}
