// The baseline: a bare node:http server answering each recorded request with the exact status,
// headers and body bytes the service sent. Usage: node bench/bare-server.mjs <responses.json> <port>
// (forked by bench/run.ts, which it tells when it is listening).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [file, port] = process.argv.slice(2);
let routes;
const load = () => {
  const recorded = JSON.parse(readFileSync(file, "utf8"));
  routes = new Map(Object.entries(recorded).map(([k, r]) => [k, { status: r.status, headers: r.headers, body: Buffer.from(r.body, "base64") }]));
};
load();
// "reload": the bench recorded more responses (the share image is recorded after the API runs).
process.on("message", (m) => {
  if (m === "reload") {
    load();
    process.send?.("reloaded");
  }
});

createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    // Keyed as bench/run.ts records: method and URL, and the MCP protocol version when sent.
    const version = req.headers["mcp-protocol-version"];
    const hit = routes.get(`${req.method} ${req.url}${version ? ` ${version}` : ""}`);
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(hit.status, hit.headers);
    res.end(hit.body);
  });
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
