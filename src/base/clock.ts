// The one way the domain learns what time it is. Tests pin it; nothing else calls Date.now().

export interface Clock {
  /** Current instant. */
  now(): Date;
  /**
   * Milliseconds on a clock that only moves forward, for measuring elapsed time (rate-limit
   * windows): the process's monotonic clock, which a wall-clock step does not move. A FixedClock
   * moves it with its instant, so tests cross a window by advancing the clock, not by sleeping.
   */
  elapsedMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), elapsedMs: () => performance.now() };

/** A clock that stays where it is put (tests, benchmarks). */
export class FixedClock implements Clock {
  #t: number;
  constructor(at: Date | string | number) {
    this.#t = new Date(at).getTime();
  }
  now(): Date {
    return new Date(this.#t);
  }
  elapsedMs(): number {
    return this.#t;
  }
  set(at: Date | string | number): void {
    this.#t = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#t += ms;
  }
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Start of the UTC hour containing `t`. */
export function hourFloor(t: Date | number): Date {
  const ms = typeof t === "number" ? t : t.getTime();
  return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);
}
