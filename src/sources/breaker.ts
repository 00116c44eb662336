// Circuit breaker per upstream: stop calling a failing upstream for a while, then let one probe
// through. closed → open after N consecutive failures (or at once on 429) → half-open after the
// cool-down → closed on a successful probe, open again on a failed one. One log line per change
// (at debug while the cause is a network failure, which the upstream client reports once).
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  cooldownMs: number;
  clock: Clock;
  log: Logger;
}

/** Longest wait an upstream's Retry-After can impose; beyond it we probe anyway. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export class CircuitBreaker {
  #state: BreakerState = "closed";
  #failures = 0;
  #openUntil = 0;
  #probing = false;
  /** Why the circuit last opened: a network failure (offline) is already reported by the client. */
  #reason = "";

  constructor(
    readonly upstream: string,
    readonly opts: BreakerOptions,
  ) {}

  get state(): BreakerState {
    return this.#state;
  }

  /** Whether a call may go out now, without claiming the half-open probe. */
  wouldAllow(): boolean {
    if (this.#state === "closed") return true;
    if (this.#state === "half-open") return !this.#probing;
    return this.opts.clock.now().getTime() >= this.#openUntil;
  }

  /** Claims permission for one call; in half-open only one probe is out at a time. */
  tryAcquire(): boolean {
    if (this.#state === "open") {
      if (this.opts.clock.now().getTime() < this.#openUntil) return false;
      this.#transition("half-open", {});
    }
    if (this.#state === "half-open") {
      if (this.#probing) return false;
      this.#probing = true;
    }
    return true;
  }

  /** The call was turned away without judging the upstream (a 429 pacing us): frees a half-open probe. */
  onNeutral(): void {
    this.#probing = false;
  }

  onSuccess(): void {
    this.#probing = false;
    this.#failures = 0;
    if (this.#state !== "closed") this.#transition("closed", {});
  }

  /**
   * Records a failed call. `retryAfterMs` (from a 429's Retry-After) opens the circuit at once for
   * at least that long: the upstream has told us when to come back.
   */
  onFailure(reason: string, retryAfterMs?: number): void {
    const wasProbe = this.#probing;
    this.#probing = false;
    this.#failures++;
    const told = retryAfterMs !== undefined;
    if (this.#state === "half-open" || wasProbe || told || this.#failures >= this.opts.failureThreshold) {
      const waitMs = Math.max(this.opts.cooldownMs, Math.min(MAX_RETRY_AFTER_MS, retryAfterMs ?? 0));
      this.#openUntil = this.opts.clock.now().getTime() + waitMs;
      this.#reason = reason;
      if (this.#state === "open") return;
      this.#transition("open", { reason, failures: this.#failures, retryAfterS: Math.ceil(waitMs / 1000) });
    }
  }

  /** Whole seconds until a call may be tried again (at least 1). */
  retryAfterS(): number {
    const ms = this.#state === "open" ? this.#openUntil - this.opts.clock.now().getTime() : 0;
    return Math.max(1, Math.ceil(ms / 1000));
  }

  #transition(to: BreakerState, detail: Record<string, unknown>): void {
    const from = this.#state;
    this.#state = to;
    const msg =
      to === "open"
        ? `upstream ${this.upstream}: circuit opened, calls paused`
        : to === "half-open"
          ? `upstream ${this.upstream}: circuit half-open, probing`
          : `upstream ${this.upstream}: circuit closed, upstream healthy again`;
    // While the network is down the upstream client has said so once; the breaker's cycles
    // (probe, open again) are then routine and logged at debug.
    const offline = this.#reason === "network" && to !== "closed";
    const level = offline ? "debug" : to === "open" ? "warn" : "info";
    this.opts.log[level]({ upstream: this.upstream, breaker: { from, to }, ...detail }, msg);
  }
}
