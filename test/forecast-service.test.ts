// The forecast service between the engine and the upstreams: the span of inputs and tides it asks
// for, one build per spot, hour and source revision (shared by concurrent callers), nothing kept
// while a refresh is due, superseded builds dropped, and the data time an answer carries. The
// source here is a test double of an upstream (the engine and the service are the real ones).
import { describe, expect, it } from "vitest";
import { Catalog, type Spot } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/base/clock.js";
import { ForecastService } from "../src/forecast/service.js";
import type { HourlyInputs, Source, TideSeries, TideSource } from "../src/sources/types.js";
import { calmInputs } from "./helpers/inputs.js";

const HOUR = 3_600_000;
const catalog = Catalog.load();
const spot = catalog.spot("hanauma-bay")!;
const other = catalog.spot("sharks-cove")!;

class UpstreamDouble implements Source {
  readonly id = "test";
  calls: { spot: string; start: Date; end: Date }[] = [];
  /** What revision() says now; null: a refresh is due. Undefined: the source keeps no revisions. */
  rev: string | null | undefined = "r1";
  /** The revision the next answers were read at (defaults to rev at the time of the call). */
  readRev: string | null | undefined = undefined;
  fetchedAt: Date | null = null;
  #gate: Promise<void> | null = null;
  #open: (() => void) | null = null;

  hold(): void {
    this.#gate = new Promise((r) => (this.#open = r));
  }
  release(): void {
    this.#open?.();
    this.#gate = null;
  }
  async hourly(s: Spot, start: Date, end: Date): Promise<HourlyInputs> {
    this.calls.push({ spot: s.id, start, end });
    const readAt = this.readRev === undefined ? this.rev : this.readRev;
    if (this.#gate) await this.#gate;
    const inp = calmInputs(start, end, { id: "test:upstream", climatology: false, fetchedAt: this.fetchedAt, credits: [] });
    if (readAt !== undefined) inp.revision = readAt;
    return inp;
  }
  revision?(s: Spot): string | null;
}
/** A double whose revision() answers what `rev` says. */
function upstream(): UpstreamDouble {
  const u = new UpstreamDouble();
  u.revision = () => (u.rev === undefined ? "" : u.rev);
  return u;
}

class TidesDouble implements TideSource {
  readonly id = "test-tides";
  calls: { start: Date; end: Date }[] = [];
  async extremes(_s: Spot, start: Date, end: Date): Promise<TideSeries | null> {
    this.calls.push({ start, end });
    return null;
  }
}

function service(at = "2026-11-21T19:25:00Z", source: UpstreamDouble = upstream()) {
  const clock = new FixedClock(at);
  const tides = new TidesDouble();
  return { svc: new ForecastService({ source, tides, clock }, catalog), source, tides, clock };
}

describe("what the service asks its upstreams for", () => {
  it("asks for 76 h of history (rain memory and the longest block) through today + 6, and tides a day beyond each end", async () => {
    const { svc, source, tides } = service();
    const t = await svc.forecast(spot);
    const hour = new Date("2026-11-21T19:00:00Z");
    expect(source.calls).toEqual([{ spot: spot.id, start: new Date(hour.getTime() - 76 * HOUR), end: new Date(hour.getTime() + (7 * 24 + 26) * HOUR) }]);
    expect(tides.calls).toEqual([{ start: new Date(hour.getTime() - 100 * HOUR), end: new Date(hour.getTime() + (7 * 24 + 50) * HOUR) }]);
    expect(t.forecast.now).toEqual(hour);
    // The last period (21:00 on today + 6, Honolulu) ends within what was asked for.
    expect(t.forecast.periods.at(-1)!.end.getTime()).toBeLessThanOrEqual(source.calls[0]!.end.getTime());
    expect(t.forecast.periods.at(-1)!.score).not.toBeNull();
  });
});

describe("one build per spot, hour and revision", () => {
  it("shares one build among concurrent callers and keeps it for the rest of the hour", async () => {
    const { svc, source } = service();
    source.hold();
    const pending = [svc.forecast(spot), svc.forecast(spot), svc.forecast(other)];
    source.release();
    const [a, b, c] = await Promise.all(pending);
    expect(a).toBe(b);
    expect(c!.forecast.spot.id).toBe(other.id);
    expect(await svc.forecast(spot)).toBe(a);
    expect(source.calls.map((x) => x.spot)).toEqual([spot.id, other.id]);
    expect(svc.cachedForecasts).toBe(2);
  });

  it("builds again when the source's data changes, and keeps only the newer build", async () => {
    const { svc, source } = service();
    const first = await svc.forecast(spot);
    const v1 = svc.versionOf(spot.id);
    source.rev = "r2";
    const second = await svc.forecast(spot);
    expect(second).not.toBe(first);
    expect(svc.versionOf(spot.id)).not.toBe(v1);
    expect(svc.versionOf(spot.id)).not.toBeNull();
    expect(svc.cachedForecasts).toBe(1);
    expect(await svc.forecast(spot)).toBe(second);
    expect(source.calls).toHaveLength(2);
  });

  it("gives the version of the hour it is asked for, and a new one as soon as the source's data moves on (no stale key kept)", async () => {
    const { svc, source, clock } = service();
    await svc.forecast(spot);
    const hour = Math.floor(clock.now().getTime() / HOUR) * HOUR;
    const v1 = svc.versionOf(spot.id);
    expect(svc.versionOf(spot.id, hour)).toBe(v1);
    // Another hour: another version, and back again (the key kept per spot follows the hour asked).
    expect(svc.versionOf(spot.id, hour + HOUR)).not.toBe(v1);
    expect(svc.versionOf(spot.id, hour)).toBe(v1);
    // The source's data moves on: no version until it is built (the build of this hour read older
    // data), then the new build's, never the key kept for r1.
    source.rev = "r2";
    expect(svc.versionOf(spot.id, hour)).toBeNull();
    await svc.forecast(spot);
    const v2 = svc.versionOf(spot.id, hour);
    expect(v2).not.toBeNull();
    expect(v2).not.toBe(v1);
    source.rev = null;
    expect(svc.versionOf(spot.id, hour)).toBeNull();
    source.rev = "r2";
    expect(svc.versionOf(spot.id, hour)).toBe(v2);
  });

  it("keeps nothing while a refresh is due, and gives each spot its own build meanwhile", async () => {
    const { svc, source } = service();
    source.rev = null;
    expect(svc.versionOf(spot.id)).toBeNull();
    source.hold();
    const pending = [svc.forecast(spot), svc.forecast(other), svc.forecast(spot)];
    source.release();
    const [a, b, c] = await Promise.all(pending);
    expect(a!.forecast.spot.id).toBe(spot.id);
    expect(b!.forecast.spot.id).toBe(other.id);
    expect(c).toBe(a);
    expect(svc.cachedForecasts).toBe(0);
    await svc.forecast(spot);
    expect(source.calls.map((x) => x.spot)).toEqual([spot.id, other.id, spot.id]);
  });

  it("files a build under the revision it read, so data that arrived during the build is built again", async () => {
    const { svc, source } = service();
    // The build reads r1 while the source has already moved on to r2.
    source.readRev = "r1";
    source.rev = "r2";
    await svc.forecast(spot);
    // This hour's build is older than the source's data: answers computed from it are not versioned.
    expect(svc.versionOf(spot.id)).toBeNull();
    source.readRev = undefined;
    await svc.forecast(spot);
    expect(source.calls).toHaveLength(2);
    expect(svc.versionOf(spot.id)).not.toBeNull();
    expect(svc.cachedForecasts).toBe(1);
    // A spot never built has a version: there is nothing older to be wary of.
    expect(svc.versionOf(other.id)).not.toBeNull();
  });

  it("has a version for a spot built last hour once the hour turns, and drops last hour's forecasts", async () => {
    const { svc, source, clock } = service();
    await svc.forecast(spot);
    await svc.forecast(other);
    const v = svc.versionOf(spot.id);
    clock.set("2026-11-21T20:01:00Z");
    expect(svc.versionOf(spot.id)).not.toBeNull();
    expect(svc.versionOf(spot.id)).not.toBe(v);
    await svc.forecast(spot);
    expect(svc.cachedForecasts).toBe(1);
    expect(source.calls).toHaveLength(3);
  });

  it("holds a forecast for every spot asked about in the hour, however many", async () => {
    const { svc, source } = service();
    const spots = catalog.spots.slice(0, 80);
    for (const s of spots) await svc.forecast(s);
    expect(svc.cachedForecasts).toBe(80);
    for (const s of spots) await svc.forecast(s);
    expect(source.calls).toHaveLength(80);
  });

  it("works with a source that keeps no revisions: one build per hour", async () => {
    const source = new UpstreamDouble();
    source.rev = undefined;
    const { svc } = service(undefined, source);
    const a = await svc.forecast(spot);
    expect(await svc.forecast(spot)).toBe(a);
    expect(svc.versionOf(spot.id)).not.toBeNull();
    expect(source.calls).toHaveLength(1);
  });
});

describe("the data time of an answer", () => {
  it("is the hour, or the newest upstream fetch when that came later in the hour", async () => {
    const early = upstream();
    early.fetchedAt = new Date("2026-11-21T18:40:00Z");
    expect((await service(undefined, early).svc.forecast(spot)).generatedAt).toEqual(new Date("2026-11-21T19:00:00Z"));
    const late = upstream();
    late.fetchedAt = new Date("2026-11-21T19:12:00Z");
    expect((await service(undefined, late).svc.forecast(spot)).generatedAt).toEqual(new Date("2026-11-21T19:12:00Z"));
  });
});

describe("the strings a cached forecast keeps (RUNTIME_INTERN)", () => {
  it("passes each period's start, end and why through keepString before caching, and the answer reads the same", async () => {
    const kept: string[] = [];
    const clock = new FixedClock("2026-11-21T19:25:00Z");
    const keeping = new ForecastService({ source: upstream(), tides: new TidesDouble(), clock, keepString: (s) => (kept.push(s), s) }, catalog);
    const t = await keeping.forecast(spot);
    const periods = [...t.forecast.periods, ...(t.forecast.nowcast ? [t.forecast.nowcast] : [])];
    expect(kept.length).toBe(periods.length * 2 + periods.filter((p) => p.json.why !== null).length);
    expect(kept).toContain(t.forecast.periods[0]!.json.start);
    const plain = await service().svc.forecast(spot);
    expect(JSON.stringify(t.forecast.periods.map((p) => p.json))).toBe(JSON.stringify(plain.forecast.periods.map((p) => p.json)));
  });
});
