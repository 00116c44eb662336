// First-time questions: what hosts send. Each conversation asks its own spot, date and activity, so
// a repeated call (which MCP_REPLAY may answer from stored bytes) is rare; this section asks every
// question once. The same questions go to three fresh instances, one per surface: REST, MCP at
// 2026-07-28 and MCP at 2025-06-18 (one SSE event). Four callers in flight give the CPU per answer
// (the server process's user + system time over the run, from /proc); a fourth and fifth fresh
// instance answer 150 of the questions one at a time for the latency one waiting caller sees.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { freePort } from "../test/helpers/ports.js";
import { benchEnv, START } from "./start-command.js";

export type Surface = "rest" | "mcp-2026" | "mcp-2025";
export interface FirstTimeRow {
  surface: Surface;
  questions: number;
  failed: number;
  cpuMsPerAnswer: number;
  /** One waiting caller: median and 90th percentile, ms. */
  p50Ms: number;
  p90Ms: number;
}
export interface FirstTimeResult {
  questions: number;
  rows: FirstTimeRow[];
}

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };

function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function start(): Promise<{ proc: ChildProcess; base: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, START.args, {
    cwd: PROJECT_ROOT,
    stdio: "ignore",
    env: benchEnv(port),
  });
  const base = `http://127.0.0.1:${port}`;
  // Ready: warmed up (the readiness probe says so), so no question pays for start-up.
  for (;;) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { proc, base };
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stop(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill("SIGKILL");
  await exited;
}

type Question = { tool: "get_conditions" | "recommend_spot"; args: Record<string, string>; path: string };

/** Every spot's conditions for two dates and every ranking region's picks for each activity and both dates. */
async function questions(base: string): Promise<Question[]> {
  const regions = ((await (await fetch(`${base}/api/v1/coverage`)).json()) as { regions: { id: string; decision_support: string }[] }).regions
    .filter((r) => r.decision_support === "full")
    .map((r) => r.id);
  const spots = ((await (await fetch(`${base}/api/v1/spots`)).json()) as { spots: { id: string }[] }).spots.map((s) => s.id);
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const q: Question[] = [];
  for (const date of [day(1), day(2)]) {
    for (const spot of spots) q.push({ tool: "get_conditions", args: { spot, from: date }, path: `/api/v1/conditions?spot=${spot}&from=${date}` });
    for (const region of regions) {
      for (const activity of ["snorkel", "dive", "freedive", "spearfish"]) {
        q.push({ tool: "recommend_spot", args: { activity, region, date }, path: `/api/v1/recommendations?activity=${activity}&region=${region}&date=${date}` });
      }
    }
  }
  return q;
}

async function ask(surface: Surface, base: string, q: Question, id: number): Promise<boolean> {
  let res: Response;
  if (surface === "rest") res = await fetch(base + q.path);
  else if (surface === "mcp-2026") {
    res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": q.tool },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: q.tool, arguments: q.args, _meta: META } }),
    });
  } else {
    res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: q.tool, arguments: q.args } }),
    });
  }
  const text = await res.text();
  return res.status === 200 && !text.includes('"isError":true');
}

async function cpuPass(surface: Surface, qs: Question[]): Promise<{ failed: number; cpuMsPerAnswer: number }> {
  const { proc, base } = await start();
  try {
    const c0 = cpuMs(proc.pid!);
    let next = 0;
    let failed = 0;
    const lane = async () => {
      for (let i = next++; i < qs.length; i = next++) if (!(await ask(surface, base, qs[i]!, i))) failed++;
    };
    await Promise.all(Array.from({ length: 4 }, lane));
    return { failed, cpuMsPerAnswer: Math.round(((cpuMs(proc.pid!) - c0) / qs.length) * 100) / 100 };
  } finally {
    await stop(proc);
  }
}

async function latencyPass(surface: Surface, qs: Question[]): Promise<{ p50Ms: number; p90Ms: number }> {
  const { proc, base } = await start();
  try {
    const lat: number[] = [];
    for (let i = 0; i < qs.length; i++) {
      const t0 = performance.now();
      await ask(surface, base, qs[i]!, i);
      lat.push(performance.now() - t0);
    }
    lat.sort((a, b) => a - b);
    const at = (p: number) => Math.round(lat[Math.min(lat.length - 1, Math.floor(lat.length * p))]! * 10) / 10;
    return { p50Ms: at(0.5), p90Ms: at(0.9) };
  } finally {
    await stop(proc);
  }
}

export async function firstTimeSection(): Promise<FirstTimeResult> {
  const probe = await start();
  const qs = await questions(probe.base).finally(() => stop(probe.proc));
  // The latency sample: 150 questions spread over the list (conditions and picks alike).
  const sample = qs.filter((_, i) => i % Math.max(1, Math.floor(qs.length / 150)) === 0).slice(0, 150);
  const rows: FirstTimeRow[] = [];
  for (const surface of ["rest", "mcp-2026", "mcp-2025"] as const) {
    const cpu = await cpuPass(surface, qs);
    const lat = await latencyPass(surface, sample);
    rows.push({ surface, questions: qs.length, ...cpu, ...lat });
    console.log(JSON.stringify(rows.at(-1)));
  }
  return { questions: qs.length, rows };
}

export function firstTimeReport(r: FirstTimeResult): string {
  const rest = r.rows.find((x) => x.surface === "rest")!;
  const label: Record<Surface, string> = { rest: "REST", "mcp-2026": "MCP 2026-07-28", "mcp-2025": "MCP 2025-06-18 (SSE)" };
  const lines = [
    `${r.questions} first-time questions (every spot's conditions for two dates, every ranking region's picks for four activities and two dates), each asked once, on a fresh instance per surface.`,
    "",
    "| Surface | CPU per answer (4 in flight) | × REST | One waiting caller p50 / p90 | p50 × REST | Failed |",
    "|---|---|---|---|---|---|",
  ];
  for (const x of r.rows) {
    lines.push(
      `| ${label[x.surface]} | ${x.cpuMsPerAnswer} ms | ${(x.cpuMsPerAnswer / rest.cpuMsPerAnswer).toFixed(2)} | ${x.p50Ms} / ${x.p90Ms} ms | ${(x.p50Ms / rest.p50Ms).toFixed(2)} | ${x.failed} |`,
    );
  }
  return lines.join("\n");
}
