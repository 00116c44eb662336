// Open-Meteo's free-tier limits as the real servers apply them, for the emulator: per client IP,
// one request running and about five queued (more are refused at once with HTTP 429 "Too many
// concurrent requests"; open-meteo RateLimiter.swift / ConcurrencyGroupLimiter.swift, maintainer in
// open-meteo#1493), and weighted quotas per UTC minute, hour and day (open-meteo#1295), each refused
// with a 429 whose reason names the window. Counters are kept for tests to read.

import { OPEN_METEO_FREE_TIER } from "../../src/base/upstream-limits.js";

export const OPEN_METEO_CONCURRENCY_REASON = "Too many concurrent requests";

export type QuotaWindowId = "minutely" | "hourly" | "daily";

export interface OpenMeteoLimitsOptions {
  /** Requests running at once per client IP (free tier: 1). */
  concurrency: number;
  /** Requests waiting behind them per client IP (free tier: about 5). */
  queue: number;
  /** Weighted calls per window (free tier: 600/min, 5,000/h, 10,000/day). */
  perMinute: number;
  perHour: number;
  perDay: number;
}

/** The free tier as the service knows it, plus the queue depth only the server shows. */
export const OPEN_METEO_EMULATED_TIER: OpenMeteoLimitsOptions = { ...OPEN_METEO_FREE_TIER, queue: 5 };

const ANY_CLIENT = "*";
const WINDOW_MS: Record<QuotaWindowId, number> = { minutely: 60_000, hourly: 3_600_000, daily: 86_400_000 };

/** The reasons Open-Meteo gives when a window's quota is spent. */
export const QUOTA_REASONS: Record<QuotaWindowId, string> = {
  minutely: "Minutely API request limit exceeded. Please try again in one minute.",
  hourly: "Hourly API request limit exceeded. Please try again in the next hour.",
  daily: "Daily API request limit exceeded. Please try again tomorrow.",
};

export interface OpenMeteoCounters {
  requests: number;
  /** Weighted calls accepted (what the quotas count). */
  weightedCalls: number;
  /** Weighted calls accepted per UTC day (yyyy-mm-dd). */
  weightedCallsByDay: Record<string, number>;
  /** 429s sent, by reason. */
  refused: { concurrency: number; minutely: number; hourly: number; daily: number };
  /** Most requests from one client running or queued at once. */
  maxInFlight: number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; status: 429; reason: string };

/**
 * Calls for one request as Open-Meteo counts them: locations × max(1, variables/10) ×
 * max(1, days/14) (open-meteo.com/en/pricing; open-meteo#1295).
 */
export function weightOf(locations: number, variables: number, days: number): number {
  return locations * Math.max(1, variables / 10) * Math.max(1, days / 14);
}

export class OpenMeteoLimits {
  readonly counters: OpenMeteoCounters = emptyCounters();
  readonly #used = new Map<string, number>(); // `${window}|${client}|${windowStart}` → weighted calls
  readonly #clients = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(
    public opts: OpenMeteoLimitsOptions,
    readonly now: () => Date,
  ) {}

  /**
   * Admits one request from `client` weighing `weight` calls: refused at once when a quota window is
   * spent or the queue is full; otherwise resolves when it may run. Call `release` when answered.
   */
  async admit(client: string, weight: number): Promise<Admission> {
    this.counters.requests++;
    const t = this.now().getTime();
    for (const w of ["minutely", "hourly", "daily"] as const) {
      if (this.#spent(w, client, t) + weight > this.#limit(w)) {
        this.counters.refused[w]++;
        return { ok: false, status: 429, reason: QUOTA_REASONS[w] };
      }
    }
    const c = this.#clients.get(client) ?? { running: 0, waiting: [] };
    this.#clients.set(client, c);
    if (c.running >= this.opts.concurrency) {
      if (c.waiting.length >= this.opts.queue) {
        this.counters.refused.concurrency++;
        return { ok: false, status: 429, reason: OPEN_METEO_CONCURRENCY_REASON };
      }
      this.counters.maxInFlight = Math.max(this.counters.maxInFlight, c.running + c.waiting.length + 1);
      await new Promise<void>((resolve) => c.waiting.push(resolve));
    } else {
      this.counters.maxInFlight = Math.max(this.counters.maxInFlight, c.running + c.waiting.length + 1);
    }
    c.running++;
    // Counted when it runs, at the time it runs.
    const at = this.now().getTime();
    for (const w of ["minutely", "hourly", "daily"] as const) {
      const key = this.#key(w, client, at);
      this.#used.set(key, (this.#used.get(key) ?? 0) + weight);
    }
    this.counters.weightedCalls += weight;
    const day = new Date(at).toISOString().slice(0, 10);
    this.counters.weightedCallsByDay[day] = (this.counters.weightedCallsByDay[day] ?? 0) + weight;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        c.running--;
        c.waiting.shift()?.();
      },
    };
  }

  /** Spends what is left of the current window for every client (another user of the same address, say). */
  exhaust(window: QuotaWindowId): void {
    const t = this.now().getTime();
    this.#used.set(this.#key(window, ANY_CLIENT, t), this.#limit(window));
  }

  /** Forgets every quota spent (counters stay). */
  resetQuotas(): void {
    this.#used.clear();
  }

  resetCounters(): void {
    Object.assign(this.counters, emptyCounters());
  }

  #limit(w: QuotaWindowId): number {
    return w === "minutely" ? this.opts.perMinute : w === "hourly" ? this.opts.perHour : this.opts.perDay;
  }

  #key(w: QuotaWindowId, client: string, t: number): string {
    return `${w}|${client}|${Math.floor(t / WINDOW_MS[w])}`;
  }

  #spent(w: QuotaWindowId, client: string, t: number): number {
    return (this.#used.get(this.#key(w, client, t)) ?? 0) + (this.#used.get(this.#key(w, ANY_CLIENT, t)) ?? 0);
  }
}

function emptyCounters(): OpenMeteoCounters {
  return { requests: 0, weightedCalls: 0, weightedCallsByDay: {}, refused: { concurrency: 0, minutely: 0, hourly: 0, daily: 0 }, maxInFlight: 0 };
}
