// `npm run stub -- --scenario storm --port 4010`: the upstream emulator on a fixed port, so the
// service can run in live mode without internet. Prints the environment that points the service at it.
import { parseArgs } from "node:util";
import { SCENARIO_NAMES, SCENARIOS, type ScenarioName } from "./stub/scenarios.js";
import { FAULT_KINDS, STUB_UPSTREAMS, startStubUpstreams, type FaultKind, type StubUpstream } from "./stub/upstreams.js";

const { values } = parseArgs({
  options: {
    scenario: { type: "string", default: "calm" },
    port: { type: "string", default: "4010" },
    host: { type: "string", default: "127.0.0.1" },
    fault: { type: "string", multiple: true, default: [] },
    "delay-ms": { type: "string", default: "0" },
    "latency-scale": { type: "string", default: "1" },
    help: { type: "boolean", default: false },
  },
});

const usage = `Usage: npm run stub -- [--scenario NAME] [--port 4010] [--fault UPSTREAM:KIND]... [--delay-ms N] [--latency-scale 1]
  The emulator behaves like the real services by default: Open-Meteo's free-tier concurrency (1 running,
  5 queued per client IP) and weighted quotas, ERDDAP's 7- and 11-day lags, 8–18 s answers and 502s,
  CO-OPS's HTTP-200 errors. Open-Meteo's run metadata (/data/<model>/static/meta.json) follows each model's
  real cadence, outside the quota. --latency-scale 0.1 makes every answer ten times faster; nothing else changes.
  scenarios: ${SCENARIO_NAMES.map((n) => `\n    ${n.padEnd(14)} ${SCENARIOS[n].description}`).join("")}
  upstreams: ${STUB_UPSTREAMS.join(", ")}
  faults:    ${FAULT_KINDS.join(", ")}
  While running: GET /_stub?scenario=storm&fault=marine:http500 (fault=marine:none clears) changes it;
  /_stub?exhaust=daily spends Open-Meteo's daily quota, /_stub?quotas=reset restores it; /_stub shows the counters.`;

if (values.help || !(SCENARIO_NAMES as readonly string[]).includes(values.scenario)) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const stub = await startStubUpstreams({
  scenario: values.scenario as ScenarioName,
  port: Number(values.port),
  host: values.host,
  delayMs: Number(values["delay-ms"]),
  latencyScale: Number(values["latency-scale"]),
});
for (const f of values.fault) {
  const [upstream, kind] = f.split(":") as [StubUpstream, FaultKind];
  if (!STUB_UPSTREAMS.includes(upstream) || !FAULT_KINDS.includes(kind)) {
    console.error(`bad --fault ${f}\n${usage}`);
    process.exit(2);
  }
  stub.fault(upstream, { kind, retryAfterS: 60 });
}

console.log(`Stub upstreams (${stub.scenario.name}: ${stub.scenario.description}) at ${stub.base}`);
console.log("Run the service against it, e.g.:\n");
console.log(
  `  ${Object.entries({ DATA_SOURCE: "live", ...stub.env })
    .map(([k, v]) => `${k}=${v}`)
    .join(" \\\n  ")} \\\n  npm start\n`,
);
const stop = () => void stub.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
