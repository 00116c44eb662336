// First-time questions: what hosts send. Each conversation asks its own spot, date and activity, so
// a repeated call is rare; this section asks every question once. The same questions go to three
// fresh instances, one per surface: REST, MCP at 2026-07-28 and MCP at 2025-06-18 (one SSE event),
// taking turns over slices of the questions. Four callers in flight give the CPU per answer (the
// server process's user + system time, from /proc); three more fresh instances are asked each
// question twice in a row (a host's retry or re-render: half the calls repeat one just answered),
// and three more answer 150 of the questions one at a time for the latency one waiting caller sees.
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
  /** CPU against REST's: the median over the turns of the ratio within each turn (the surfaces' windows are adjacent). */
  cpuRatio: number;
  /** Each question asked twice in a row (a host's retry or re-render), on another fresh instance: CPU per answer over both. */
  cpuMsPerAnswerTwice: number;
  cpuRatioTwice: number;
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
    // The instances wait while the others take their turn: a compaction when one falls idle would
    // move its collector's work out of the turns measured.
    env: { ...benchEnv(port), RUNTIME_IDLE_COMPACTION: "off" },
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

const SURFACES: readonly Surface[] = ["rest", "mcp-2026", "mcp-2025"];
/** The questions are asked in this many turns, each surface taking its turn in a rotating order. */
const TURNS = 8;

/**
 * CPU per answer on a fresh instance per surface, every question asked `times` in a row, 4 in
 * flight. The surfaces take turns over slices of the questions (the first to go rotates), so
 * load from other work on the machine falls on all three alike instead of on whichever ran then.
 */
interface CpuFigures {
  failed: number;
  cpuMsPerAnswer: number;
  cpuRatio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function cpuPass(qs: Question[], times = 1): Promise<Record<Surface, CpuFigures>> {
  const instances = await Promise.all(SURFACES.map(() => start()));
  try {
    const cpu = SURFACES.map(() => 0);
    const failed = SURFACES.map(() => 0);
    const ratios: number[][] = SURFACES.map(() => []);
    const per = Math.ceil(qs.length / TURNS);
    for (let turn = 0; turn < TURNS; turn++) {
      const slice = qs.slice(turn * per, (turn + 1) * per);
      const spent = SURFACES.map(() => 0);
      for (let j = 0; j < SURFACES.length; j++) {
        const s = (turn + j) % SURFACES.length;
        const { proc, base } = instances[s]!;
        const c0 = cpuMs(proc.pid!);
        let next = 0;
        const lane = async () => {
          for (let i = next++; i < slice.length; i = next++) for (let k = 0; k < times; k++) if (!(await ask(SURFACES[s]!, base, slice[i]!, i * times + k))) failed[s]!++;
        };
        await Promise.all(Array.from({ length: 4 }, lane));
        spent[s] = cpuMs(proc.pid!) - c0;
        cpu[s]! += spent[s]!;
      }
      SURFACES.forEach((_, s) => ratios[s]!.push(spent[s]! / spent[0]!));
    }
    const out = {} as Record<Surface, CpuFigures>;
    SURFACES.forEach((s, i) => (out[s] = { failed: failed[i]!, cpuMsPerAnswer: Math.round((cpu[i]! / (qs.length * times)) * 100) / 100, cpuRatio: Math.round(median(ratios[i]!) * 100) / 100 }));
    return out;
  } finally {
    await Promise.all(instances.map((i) => stop(i.proc)));
  }
}

/** One waiting caller per surface, a fresh instance each: question by question, the surfaces in a rotating order. */
async function latencyPass(qs: Question[]): Promise<Record<Surface, { p50Ms: number; p90Ms: number }>> {
  const instances = await Promise.all(SURFACES.map(() => start()));
  try {
    const lat: number[][] = SURFACES.map(() => []);
    for (let i = 0; i < qs.length; i++) {
      for (let j = 0; j < SURFACES.length; j++) {
        const s = (i + j) % SURFACES.length;
        const t0 = performance.now();
        await ask(SURFACES[s]!, instances[s]!.base, qs[i]!, i);
        lat[s]!.push(performance.now() - t0);
      }
    }
    const out = {} as Record<Surface, { p50Ms: number; p90Ms: number }>;
    SURFACES.forEach((s, k) => {
      const sorted = [...lat[k]!].sort((a, b) => a - b);
      const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! * 10) / 10;
      out[s] = { p50Ms: at(0.5), p90Ms: at(0.9) };
    });
    return out;
  } finally {
    await Promise.all(instances.map((i) => stop(i.proc)));
  }
}

export async function firstTimeSection(): Promise<FirstTimeResult> {
  const probe = await start();
  const qs = await questions(probe.base).finally(() => stop(probe.proc));
  // The latency sample: 150 questions spread over the list (conditions and picks alike).
  const sample = qs.filter((_, i) => i % Math.max(1, Math.floor(qs.length / 150)) === 0).slice(0, 150);
  const once = await cpuPass(qs);
  const twice = await cpuPass(qs, 2);
  const lat = await latencyPass(sample);
  const rows: FirstTimeRow[] = SURFACES.map((surface) => ({
    surface,
    questions: qs.length,
    cpuMsPerAnswer: once[surface].cpuMsPerAnswer,
    cpuRatio: once[surface].cpuRatio,
    cpuMsPerAnswerTwice: twice[surface].cpuMsPerAnswer,
    cpuRatioTwice: twice[surface].cpuRatio,
    failed: once[surface].failed + twice[surface].failed,
    ...lat[surface],
  }));
  for (const r of rows) console.log(JSON.stringify(r));
  return { questions: qs.length, rows };
}

export function firstTimeReport(r: FirstTimeResult): string {
  const rest = r.rows.find((x) => x.surface === "rest")!;
  const label: Record<Surface, string> = { rest: "REST", "mcp-2026": "MCP 2026-07-28", "mcp-2025": "MCP 2025-06-18 (SSE)" };
  const lines = [
    `${r.questions} first-time questions (every spot's conditions for two dates, every ranking region's picks for four activities and two dates), each asked once, on a fresh instance per surface, the surfaces taking turns over ${TURNS} slices of the questions. × REST is the median over the turns of each turn's ratio (in brackets: the ratio of the totals).`,
    "",
    "| Surface | CPU per answer (4 in flight) | × REST | Each asked twice in a row: CPU per answer | × REST | One waiting caller p50 / p90 | p50 × REST | Failed |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const x of r.rows) {
    lines.push(
      `| ${label[x.surface]} | ${x.cpuMsPerAnswer} ms | ${x.cpuRatio.toFixed(2)} (${(x.cpuMsPerAnswer / rest.cpuMsPerAnswer).toFixed(2)}) | ${x.cpuMsPerAnswerTwice} ms | ${x.cpuRatioTwice.toFixed(2)} (${(x.cpuMsPerAnswerTwice / rest.cpuMsPerAnswerTwice).toFixed(2)}) | ${x.p50Ms} / ${x.p90Ms} ms | ${(x.p50Ms / rest.p50Ms).toFixed(2)} | ${x.failed} |`,
    );
  }
  return lines.join("\n");
}
