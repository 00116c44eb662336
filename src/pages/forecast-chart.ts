// The forecast page's 7-day chart as one server-rendered SVG: score bars coloured by tier, the
// visibility line, the tide curve with high/low marks, night shaded from suncalc's sunset to sunrise.
// Pure: plain values in, an SVG string out (every text value escaped).
import { NO_DATA_COLOR, TIERS, tierById, type Rating } from "../model/tiers.js";
import { round } from "../catalog/geo.js";
import type { Units } from "../model/format.js";
import { M_PER_FT } from "../model/visibility.js";
import { tideHeightAt } from "../sources/tides.js";
import type { TideEvent } from "../sources/types.js";
import { addDays, dateLabel, localDate, localHHMM, shortDate, zonedInstant } from "../base/zone.js";
import { sunTimes } from "../base/sun.js";
import { esc } from "../services/render/escape.js";
import { inkOn, PALETTE } from "../services/render/palette.js";

export interface ChartPeriod {
  start: Date;
  end: Date;
  score: number | null;
  rating: Rating | null;
  visibilityFt: number | null;
  swellFt: number | null;
  windKt: number | null;
}

export interface ChartInput {
  timeZone: string;
  lat: number;
  lon: number;
  /** Spot-local today: the first day drawn. */
  today: string;
  days: number;
  periods: readonly ChartPeriod[];
  /** Extremes covering the chart and a margin either side, so the curve reaches both edges. */
  tideEvents: readonly TideEvent[];
  /** A day to outline (from ?date=), or null. */
  highlight: string | null;
  /** Said in the tide panel when the spot has no tide to draw (no station within reach), else null. */
  noTide?: string | null;
  /** Feet (default) or metres for visibility and tide. */
  units?: Units;
}

// Layout in viewBox units; the page scales the SVG to its width (with a minimum so text stays legible).
const W = 1120;
const LEFT = 46;
const RIGHT = 10;
const PLOT_W = W - LEFT - RIGHT;
const HEADER = { top: 0, h: 30 };
const SCORE = { top: 40, h: 150 };
const VIS = { top: 218, h: 96 };
const TIDE = { top: 342, h: 96 };
const AXIS_Y = 458;
const H = 470;
const TIDE_STEP_MS = 20 * 60_000;
/** Height a score label needs above its bar, clear of the panel title. */
const SCORE_LABEL_ROOM = 10;

const n = (v: number) => round(v, 1);

export function forecastChartSvg(c: ChartInput): string {
  // Lengths arrive in feet; drawn in the visitor's units. Metres step by 5 (visibility) and 0.5 (tide).
  const metric = c.units === "metric";
  const len = (ft: number) => (metric ? ft * M_PER_FT : ft);
  const unit = metric ? "m" : "ft";
  const t0 = zonedInstant(c.today, 0, c.timeZone).getTime();
  const t1 = zonedInstant(addDays(c.today, c.days), 0, c.timeZone).getTime();
  const x = (t: Date | number) => LEFT + ((typeof t === "number" ? t : t.getTime()) - t0) * (PLOT_W / (t1 - t0));
  const out: string[] = [];
  const dates = Array.from({ length: c.days }, (_, i) => addDays(c.today, i));
  const scored = c.periods.filter((p) => p.score !== null);

  // Night: from each sunset to the next sunrise, across every panel.
  const night: [number, number][] = [];
  let darkFrom = t0;
  for (const d of [...dates, addDays(c.today, c.days)]) {
    const sun = sunTimes(d, c.timeZone, c.lat, c.lon);
    if (sun.sunrise && sun.sunset) {
      night.push([darkFrom, sun.sunrise.getTime()]);
      darkFrom = sun.sunset.getTime();
    }
  }
  for (const [a, b] of night) {
    const xa = Math.max(LEFT, x(a));
    const xb = Math.min(W - RIGHT, x(b));
    if (xb > xa) out.push(`<rect class="night" x="${n(xa)}" y="${SCORE.top}" width="${n(xb - xa)}" height="${AXIS_Y - SCORE.top - 14}" fill="${PALETTE.night}"/>`);
  }

  // Elapsed part of today: periods there are dropped by the conditions endpoint.
  const firstStart = c.periods[0]?.start.getTime() ?? t0;
  if (firstStart > t0) {
    out.push(`<rect x="${LEFT}" y="${SCORE.top}" width="${n(x(firstStart) - LEFT)}" height="${AXIS_Y - SCORE.top - 14}" fill="#F1F3F6"/>`);
    out.push(`<text x="${n(LEFT + 6)}" y="${SCORE.top + 16}" class="lbl">past</text>`);
  }

  // Day columns: separators, labels, and the highlighted day's outline.
  dates.forEach((d, i) => {
    const xa = x(zonedInstant(d, 0, c.timeZone));
    const xb = x(zonedInstant(addDays(d, 1), 0, c.timeZone));
    if (i > 0) out.push(`<line x1="${n(xa)}" y1="${HEADER.top + 4}" x2="${n(xa)}" y2="${AXIS_Y}" stroke="${PALETTE.grid}" stroke-width="1"/>`);
    const rel = dateLabel(d, c.today);
    const label = rel === "Today" || rel === "Tomorrow" ? `${rel} · ${shortDate(d).slice(5)}` : shortDate(d);
    const hl = d === c.highlight;
    out.push(`<text x="${n((xa + xb) / 2)}" y="${HEADER.top + 21}" text-anchor="middle" class="${hl ? "day hl" : "day"}">${esc(label)}</text>`);
    if (hl)
      out.push(
        `<rect class="highlight" x="${n(xa + 1)}" y="${HEADER.top + 2}" width="${n(xb - xa - 2)}" height="${AXIS_Y - HEADER.top - 2}" fill="none" stroke="${PALETTE.navy}" stroke-width="2.5" rx="6"/>`,
      );
  });

  // Score panel: tier threshold guides, then one bar per period.
  for (const t of TIERS) {
    if (t.min === 0) continue;
    const y = SCORE.top + SCORE.h * (1 - t.min / 100);
    out.push(`<line x1="${LEFT}" y1="${n(y)}" x2="${W - RIGHT}" y2="${n(y)}" stroke="${PALETTE.grid}" stroke-dasharray="3 4"/>`);
    out.push(`<text x="${LEFT - 6}" y="${n(y + 4)}" text-anchor="end" class="tick">${t.min}</text>`);
  }
  out.push(`<text x="${LEFT}" y="${SCORE.top - 2}" class="panel">Score (0–100) by 3-hour period</text>`);
  for (const p of scored) {
    const xa = x(p.start) + 1;
    const w = Math.max(1, x(p.end) - x(p.start) - 2);
    const h = Math.max(2, (SCORE.h * p.score!) / 100);
    const y = SCORE.top + SCORE.h - h;
    const tier = p.rating ? tierById(p.rating) : null;
    const tip =
      `${shortDate(localDate(p.start, c.timeZone))} ${localHHMM(p.start, c.timeZone)}–${localHHMM(p.end, c.timeZone)}: ${tier?.label ?? "not rated"} ${p.score}/100` +
      (p.visibilityFt === null ? "" : `, visibility ${metric ? Math.round(len(p.visibilityFt)) : p.visibilityFt} ${unit}`) +
      (p.swellFt === null ? "" : `, swell ${metric ? round(len(p.swellFt), 1) : p.swellFt} ${unit}`) +
      (p.windKt === null ? "" : `, wind ${Math.round(p.windKt)} kt`);
    out.push(`<rect class="bar" x="${n(xa)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="2" fill="${tier?.color ?? NO_DATA_COLOR}"><title>${esc(tip)}</title></rect>`);
    if (w >= 14) {
      // Above the bar, unless that would run into the panel title: then inside its top, in the ink
      // that reads on the tier colour.
      const inside = y - 3 < SCORE.top + SCORE_LABEL_ROOM;
      const ink = inside ? (inkOn(tier?.color ?? NO_DATA_COLOR) === PALETTE.navy ? " on-light" : " on-dark") : "";
      out.push(`<text x="${n(xa + w / 2)}" y="${n(inside ? y + 12 : y - 3)}" text-anchor="middle" class="score${ink}">${p.score}</text>`);
    }
  }

  // Visibility panel.
  const visPoints = c.periods.filter((p) => p.visibilityFt !== null);
  const visStep = metric ? 5 : 10;
  const visMax = Math.max(metric ? 10 : 30, Math.ceil(Math.max(0, ...visPoints.map((p) => len(p.visibilityFt!))) / visStep) * visStep);
  const yVis = (v: number) => VIS.top + VIS.h * (1 - v / visMax);
  out.push(`<text x="${LEFT}" y="${VIS.top - 6}" class="panel">Visibility (${unit})</text>`);
  for (const v of [0, visMax / 2, visMax]) {
    out.push(`<line x1="${LEFT}" y1="${n(yVis(v))}" x2="${W - RIGHT}" y2="${n(yVis(v))}" stroke="${PALETTE.grid}" stroke-width="${v === 0 ? 1 : 0.6}"/>`);
    out.push(`<text x="${LEFT - 6}" y="${n(yVis(v) + 4)}" text-anchor="end" class="tick">${round(v, 1)}</text>`);
  }
  if (visPoints.length > 0) {
    const pts = visPoints.map((p) => `${n(x((p.start.getTime() + p.end.getTime()) / 2))},${n(yVis(len(p.visibilityFt!)))}`);
    out.push(`<polyline class="vis" points="${pts.join(" ")}" fill="none" stroke="${PALETTE.visibility}" stroke-width="2.5" stroke-linejoin="round"/>`);
  }

  // Tide panel: the curve between extremes (the same cosine interpolation the forecast uses), then marks.
  out.push(`<text x="${LEFT}" y="${TIDE.top - 6}" class="panel">${c.noTide ? "Tide" : `Tide (${unit} above MLLW)`}</text>`);
  // Marks only where periods are shown (the conditions endpoint's tide_events); the curve runs edge to edge.
  const marked = c.tideEvents.filter((e) => e.time.getTime() >= firstStart && e.time.getTime() < t1);
  const samples: [number, number][] = [];
  for (let t = t0; t <= t1; t += TIDE_STEP_MS) {
    const h = tideHeightAt(c.tideEvents, new Date(t));
    if (h !== null) samples.push([t, len(h)]);
  }
  if (samples.length > 1) {
    const hs = samples.map((s) => s[1]);
    const step = metric ? 0.5 : 1;
    const lo = Math.floor(Math.min(...hs) / step) * step;
    const hi = Math.max(lo + step, Math.ceil(Math.max(...hs) / step) * step);
    const yTide = (v: number) => TIDE.top + 14 + (TIDE.h - 28) * (1 - (v - lo) / (hi - lo));
    for (const v of [lo, hi]) {
      out.push(`<line x1="${LEFT}" y1="${n(yTide(v))}" x2="${W - RIGHT}" y2="${n(yTide(v))}" stroke="${PALETTE.grid}" stroke-width="0.6"/>`);
      out.push(`<text x="${LEFT - 6}" y="${n(yTide(v) + 4)}" text-anchor="end" class="tick">${v}</text>`);
    }
    const d = samples.map(([t, h], i) => `${i === 0 ? "M" : "L"}${n(x(t))},${n(yTide(h))}`).join("");
    out.push(`<path class="tide" d="${d}" fill="none" stroke="${PALETTE.tide}" stroke-width="2"/>`);
    for (const e of marked) {
      const ex = x(e.time);
      const ey = yTide(len(e.heightFt));
      const label = `${e.type === "high" ? "H" : "L"} ${round(len(e.heightFt), 1)}`;
      const tip = `${e.type === "high" ? "High" : "Low"} tide ${round(len(e.heightFt), 2)} ${unit} at ${shortDate(localDate(e.time, c.timeZone))} ${localHHMM(e.time, c.timeZone)}`;
      out.push(`<circle class="tide-mark ${e.type}" cx="${n(ex)}" cy="${n(ey)}" r="3.5" fill="${e.type === "high" ? PALETTE.visibility : PALETTE.tide}"><title>${esc(tip)}</title></circle>`);
      out.push(`<text x="${n(ex)}" y="${n(e.type === "high" ? ey - 7 : ey + 15)}" text-anchor="middle" class="mark">${esc(label)}</text>`);
    }
  } else if (c.noTide) {
    // No curve to draw: the panel says why instead of standing empty.
    out.push(`<rect class="no-tide" x="${LEFT}" y="${TIDE.top + 6}" width="${PLOT_W}" height="${TIDE.h - 12}" rx="6" fill="#F1F3F6"/>`);
    out.push(`<text x="${n(LEFT + PLOT_W / 2)}" y="${TIDE.top + TIDE.h / 2 + 5}" text-anchor="middle" class="no-tide-text">${esc(c.noTide)}</text>`);
  }

  // Time axis: 06, 12 and 18 local on every day.
  for (const d of dates) {
    for (const hour of [6, 12, 18]) {
      const tx = x(zonedInstant(d, hour, c.timeZone));
      out.push(`<text x="${n(tx)}" y="${AXIS_Y + 10}" text-anchor="middle" class="tick">${String(hour).padStart(2, "0")}</text>`);
    }
  }

  const title = `Forecast chart: ${scored.length} three-hour periods over ${c.days} days`;
  const desc = `Bars show each period's score, coloured by tier; the blue line is visibility in ${metric ? "metres" : "feet"}; ${
    samples.length > 1 ? "the grey curve is the tide with high (H) and low (L) marks" : "no tide is drawn (no tide station within reach)"
  }; shaded bands are night.`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" class="forecast-chart">` +
    `<title id="chart-title">${esc(title)}</title><desc id="chart-desc">${esc(desc)}</desc>` +
    out.join("") +
    `</svg>`
  );
}
