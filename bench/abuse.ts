// npm run bench, abuse section: the built service (as `npm start` runs it) under one abusive client
// at a time, while another client (another loopback address) measures what it still gets:
//  - image spray: 8 concurrent requests cycling through every distinct share card (76 spots × 7
//    dates × 6 activity values), render budget off (the worst case: a client with many addresses),
//    then a page spray; the probe's /healthz and conditions latency, and peak RSS throughout;
//  - a flood of distinct X-Forwarded-For addresses (TRUST_PROXY=loopback): RSS growth;
//  - 100 sockets from one address pipelining requests and reading no answer: the probe's /healthz;
//  - 20,000 idle sockets: whether the probe is still answered.
import { fork, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import autocannon from "autocannon";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { START } from "./start-command.js";
import { freePort } from "../test/helpers/ports.js";

const ACTIVITY_VALUES = ["", "snorkel", "dive", "freedive", "spearfish", "surf"];
const PROBE_ADDRESS = "127.0.0.2";

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const round = (v: number, dp = 1) => Math.round(v * 10 ** dp) / 10 ** dp;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

const START_ARGS = START.args;

async function start(env: Record<string, string>): Promise<{ proc: ChildProcess; base: string; port: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, START_ARGS, {
    cwd: PROJECT_ROOT,
    stdio: "ignore",
    // The per-address request budget is off (every attacker here but the pipelining one stands for many
    // addresses, and the probe is one address asking as fast as it is answered); the pipelining run sets it.
    env: { ...process.env, ...START.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: base, DATA_SOURCE: "offline", LOG_LEVEL: "warn", MAX_REQUESTS_PER_SECOND_PER_IP: "0", ...env },
  });
  for (;;) {
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    await sleep(20);
  }
  return { proc, base, port };
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (proc.exitCode === null) proc.kill("SIGKILL");
}

/** One GET from the probe address on its own keep-alive connection; ms, or null on failure. */
function probeOnce(agent: Agent, url: URL, timeoutMs = 10_000): Promise<number | null> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent, localAddress: PROBE_ADDRESS, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? performance.now() - t0 : null));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(null));
    req.end();
  });
}

/** Probes /healthz and conditions in turn until `until` resolves; latencies and failures. */
async function probeWhile(base: string, until: Promise<unknown>) {
  let done = false;
  void until.then(() => (done = true));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const urls = { healthz: new URL(`${base}/healthz`), conditions: new URL(`${base}/api/v1/conditions?spot=hanauma-bay`) };
  const times: Record<keyof typeof urls, number[]> = { healthz: [], conditions: [] };
  let failed = 0;
  while (!done) {
    for (const k of Object.keys(urls) as (keyof typeof urls)[]) {
      const ms = await probeOnce(agent, urls[k]);
      if (ms === null) failed++;
      else times[k].push(ms);
    }
    await sleep(5);
  }
  agent.destroy();
  const stats = (xs: number[]) => ({ n: xs.length, p50: round(pct(xs, 0.5), 2), p99: round(pct(xs, 0.99), 2), max: round(Math.max(...xs), 1) });
  return { healthz: stats(times.healthz), conditions: stats(times.conditions), failed };
}

async function spray(base: string, paths: string[], durationS: number) {
  let i = 0;
  const statuses: Record<string, number> = {};
  const r = await autocannon({
    url: base,
    connections: 8,
    duration: durationS,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
    setupClient: (client) => client.on("response", (status: number) => void (statuses[status] = (statuses[status] ?? 0) + 1)),
  });
  return { requests: r.requests.total, statuses };
}

export async function abuseSection(opts: { sprayS: number; addresses: number; sockets: number }) {
  const today = new Date();
  const dates = Array.from({ length: 7 }, (_, d) => new Date(today.getTime() + d * 86_400_000).toISOString().slice(0, 10));
  // --- image and page sprays, render budget off (0), while the probe measures ---
  const svc = await start({ RATE_LIMIT_RENDERS_PER_HOUR: "0", RATE_LIMIT_FACTS_PER_HOUR: "0", RATE_LIMIT_FACTS_PER_DAY: "0", RATE_LIMIT_SPOTS_PER_HOUR: "0", RATE_LIMIT_SPOTS_PER_DAY: "0" });
  const spots = ((await (await fetch(`${svc.base}/api/v1/spots`)).json()) as { spots: { id: string }[] }).spots.map((s) => s.id);
  const cards = spots.flatMap((s) => dates.flatMap((d) => ACTIVITY_VALUES.map((a) => `/cards/${s}/${d}.png${a ? `?activity=${a}` : ""}`)));
  // Cycle in an order that visits every spot before repeating one (a scan, the cache's worst case).
  const pages = spots.flatMap((s) => dates.map((d) => `/spots/${s}?date=${d}`));
  // Every spot's forecast computed once first, as on any server that has been up a while: the
  // spray then measures drawing cards, not the first computation of each spot's forecast.
  for (const s of spots) await (await fetch(`${svc.base}/api/v1/conditions?spot=${s}`)).arrayBuffer();
  let peakRss = rssMb(svc.proc.pid!);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(svc.proc.pid!))), 100);
  const idle = await probeWhile(svc.base, sleep(3000));
  const imageRun = spray(svc.base, cards, opts.sprayS);
  const duringImages = await probeWhile(svc.base, imageRun);
  const images = await imageRun;
  const rssAfterImages = peakRss;
  const pageRun = spray(svc.base, pages, Math.max(5, Math.round(opts.sprayS / 2)));
  const duringPages = await probeWhile(svc.base, pageRun);
  const pagesResult = await pageRun;
  clearInterval(sampler);
  await stop(svc.proc);

  // --- distinct forwarded addresses ---
  const flood = await start({ TRUST_PROXY: "loopback", RATE_LIMIT_FACTS_PER_HOUR: "300" });
  await fetch(`${flood.base}/api/v1/coverage`);
  await sleep(500);
  const rssBefore = rssMb(flood.proc.pid!);
  let n = 0;
  let peakFlood = rssBefore;
  const floodSampler = setInterval(() => (peakFlood = Math.max(peakFlood, rssMb(flood.proc.pid!))), 200);
  const t0 = performance.now();
  const floodRun = await autocannon({
    url: `${flood.base}/api/v1/coverage`,
    connections: 16,
    amount: opts.addresses,
    requests: [
      {
        setupRequest: (req) => {
          const k = n++;
          // A new public-looking address every request (11.0.0.0 upwards), as a spoofing client would send.
          return { ...req, headers: { ...req.headers, "x-forwarded-for": `${11 + (k >>> 24)}.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}` } };
        },
      },
    ],
  });
  const floodS = (performance.now() - t0) / 1000;
  clearInterval(floodSampler);
  const rssAfter = rssMb(flood.proc.pid!);
  await stop(flood.proc);

  // --- pipelining: 100 sockets from one address, each 15 requests for the OpenAPI document (under the
  // per-connection limit of 16), never reading an answer; the probe asks /healthz meanwhile ---
  const pipe = await start({ MAX_REQUESTS_PER_SECOND_PER_IP: "128" });
  const pipeSockets: Socket[] = [];
  for (let k = 0; k < 100; k++) {
    const sk = connect({ host: "127.0.0.1", port: pipe.port });
    sk.on("error", () => {});
    // Paused: the answers pile up in the kernel's buffers and then the server's.
    sk.pause();
    sk.write("GET /openapi.json HTTP/1.1\r\nHost: a\r\nAccept-Encoding: identity\r\n\r\n".repeat(15));
    pipeSockets.push(sk);
  }
  const pipeAgent = new Agent({ keepAlive: false });
  const pipeProbe: number[] = [];
  let pipeFailed = 0;
  for (let k = 0; k < 50; k++) {
    const ms = await probeOnce(pipeAgent, new URL(`${pipe.base}/healthz`));
    if (ms === null) pipeFailed++;
    else pipeProbe.push(ms);
    await sleep(20);
  }
  for (const sk of pipeSockets) sk.destroy();
  await stop(pipe.proc);

  // --- idle sockets, held by child processes (a process may hold only so many descriptors) ---
  const sock = await start({});
  const holders = Math.ceil(opts.sockets / 10_000);
  const children = Array.from({ length: holders }, (_, h) => {
    const n = Math.min(10_000, opts.sockets - h * 10_000);
    return fork(join(PROJECT_ROOT, "bench/idle-sockets.mjs"), [String(sock.port), String(n), String(h * 50)], { stdio: "ignore" });
  });
  const reply = <T>(c: ChildProcess) => new Promise<T>((resolve) => c.once("message", (m) => resolve(m as T)));
  const opened = await Promise.all(children.map((c) => reply<{ opened: number; refused: number }>(c)));
  const peakSock = rssMb(sock.proc.pid!);
  const agent = new Agent({ keepAlive: false });
  const sockProbe: (number | null)[] = [];
  for (let k = 0; k < 100; k++) sockProbe.push(await probeOnce(agent, new URL(`${sock.base}/healthz`)));
  const stillOpen = await Promise.all(
    children.map((c) => {
      const r = reply<{ open: number }>(c);
      c.send("count");
      return r;
    }),
  );
  for (const c of children) c.send("close");
  await stop(sock.proc);
  const answered = sockProbe.filter((x): x is number => x !== null);
  const refused = opened.reduce((a, o) => a + o.refused, 0);
  const stillOpenN = stillOpen.reduce((a, o) => a + o.open, 0);

  return {
    pipelining: { sockets: 100, perSocket: 15, probeAnswered: pipeProbe.length, probeFailed: pipeFailed, probeP50: round(pct(pipeProbe, 0.5), 1), probeMax: round(Math.max(...pipeProbe), 1) },
    spray: { seconds: opts.sprayS, distinctCards: cards.length, images, pages: pagesResult, distinctPages: pages.length },
    probe: { idle, duringImages, duringPages },
    peakRssMb: { images: round(rssAfterImages, 0), overall: round(peakRss, 0) },
    flood: {
      addresses: floodRun.requests.total,
      seconds: round(floodS, 0),
      non2xx: floodRun.non2xx,
      rssBeforeMb: round(rssBefore, 0),
      rssAfterMb: round(rssAfter, 0),
      peakMb: round(peakFlood, 0),
      growthMb: round(peakFlood - rssBefore, 0),
    },
    sockets: {
      opened: opts.sockets - refused,
      refusedAtConnect: refused,
      stillOpenAfterProbe: stillOpenN,
      probeAnswered: answered.length,
      probeP50: round(pct(answered, 0.5), 1),
      probeMax: round(Math.max(...answered), 1),
      peakRssMb: round(peakSock, 0),
    },
  };
}

export function abuseReport(x: Awaited<ReturnType<typeof abuseSection>>): string {
  const ok = (b: boolean) => (b ? "met" : "**not met**");
  const p = x.probe;
  const st = (s: Record<string, number>) =>
    Object.entries(s)
      .map(([k, v]) => `${v} × ${k}`)
      .join(", ");
  return [
    `Measured ${new Date().toISOString().slice(0, 10)}. Image spray: 8 connections for ${x.spray.seconds} s cycling through ${x.spray.distinctCards} distinct cards with the render budget off (${x.spray.images.requests} requests: ${st(x.spray.images.statuses)}); page spray: ${x.spray.distinctPages} distinct pages (${x.spray.pages.requests} requests: ${st(x.spray.pages.statuses)}). The probe is another client (another loopback address), one request at a time.`,
    "",
    "| Figure | Measured | Target | |",
    "|---|---|---|---|",
    `| Probe \`/healthz\` p50 / p99, no load | ${p.idle.healthz.p50} / ${p.idle.healthz.p99} ms | — | |`,
    `| Probe \`/healthz\` p50 / p99 (max) during the image spray | ${p.duringImages.healthz.p50} / ${p.duringImages.healthz.p99} ms (${p.duringImages.healthz.max}) | p99 ≤ 50 ms | ${ok(p.duringImages.healthz.p99 <= 50)} |`,
    `| Probe conditions p50 / p99 (max) during the image spray | ${p.duringImages.conditions.p50} / ${p.duringImages.conditions.p99} ms (${p.duringImages.conditions.max}) | p99 ≤ 50 ms | ${ok(p.duringImages.conditions.p99 <= 50)} |`,
    `| Probe \`/healthz\` / conditions p99 during the page spray | ${p.duringPages.healthz.p99} / ${p.duringPages.conditions.p99} ms | — | |`,
    `| Probe requests failed during sprays | ${p.duringImages.failed + p.duringPages.failed} | 0 | ${ok(p.duringImages.failed + p.duringPages.failed === 0)} |`,
    `| Peak RSS through the sprays | ${x.peakRssMb.overall} MB (images ${x.peakRssMb.images} MB) | ≤ 250 MB | ${ok(x.peakRssMb.overall <= 250)} |`,
    `| RSS growth over ${x.flood.addresses.toLocaleString("en")} distinct forwarded addresses (${x.flood.seconds} s, ${x.flood.non2xx} non-2xx) | +${x.flood.growthMb} MB (${x.flood.rssBeforeMb} → peak ${x.flood.peakMb}, end ${x.flood.rssAfterMb}) | ≤ 64 MB | ${ok(x.flood.growthMb <= 64)} |`,
    `| ${x.pipelining.sockets} sockets from one address, each pipelining ${x.pipelining.perSocket} \`/openapi.json\` and reading none: another address's \`/healthz\` | ${x.pipelining.probeAnswered} / 50 answered, p50 ${x.pipelining.probeP50} ms, max ${x.pipelining.probeMax} | max ≤ 500 ms | ${ok(x.pipelining.probeFailed === 0 && x.pipelining.probeMax <= 500)} |`,
    `| ${x.sockets.opened.toLocaleString("en")} idle sockets from 100 addresses (${x.sockets.refusedAtConnect} refused at connect, ${x.sockets.stillOpenAfterProbe} still open after the probe): probe \`/healthz\` answered | ${x.sockets.probeAnswered} / 100 (p50 ${x.sockets.probeP50} ms, max ${x.sockets.probeMax}) | 100 / 100 | ${ok(x.sockets.probeAnswered === 100)} |`,
  ].join("\n");
}
