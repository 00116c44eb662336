// The upstream scheduler: one lane per upstream owns how many requests run at once, in what order
// waiting requests go (a caller waiting on an answer before a refresh-ahead), and the upstream's
// quota windows. Open-Meteo's free tier runs one request per client IP and refuses the seventh
// waiting one; its quotas are weighted calls per UTC minute, hour and day (data-notes §8). A lane
// never sends more than its concurrency, counts what it spends, and after a quota refusal sends
// nothing until that window resets, so the cache serves last-good answers with their true age.
//
// The lane's state (slots, spent calls, blocks) sits behind `UpstreamBudget`: in process here; a
// shared implementation (Redis) lets several instances split one client IP's allowance.
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";

/** Who is waiting: a caller's request goes before refresh-ahead work. */
export type Priority = "caller" | "refresh";

/** A request's place in the queue. Mutable: a refresh a caller starts waiting on is promoted. */
export interface Ticket {
  priority: Priority;
}

export const callerTicket = (): Ticket => ({ priority: "caller" });
export const refreshTicket = (): Ticket => ({ priority: "refresh" });

export type QuotaWindowId = "minute" | "hour" | "day";

export interface QuotaWindow {
  id: QuotaWindowId;
  /** Weighted calls allowed per fixed UTC window. */
  limit: number;
}

const WINDOW_MS: Record<QuotaWindowId, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Start of the next fixed UTC window of this kind after `t`: when a refused window opens again. */
export function windowReset(id: QuotaWindowId, t: number): number {
  return (Math.floor(t / WINDOW_MS[id]) + 1) * WINDOW_MS[id];
}

/**
 * One running slot, from the acquisition that took it to the release that frees it. A lane hands
 * the same slot from one local request to the next; the budget keeps it alive all along.
 */
export interface SlotHandle {
  readonly id: string;
}

/** Concurrency and quota state of one upstream, as a lane needs it. */
export interface UpstreamBudget {
  /**
   * Set when other processes share the slots: a waiting request also asks the budget again this
   * often, since a slot another instance frees is never handed over here.
   */
  readonly sharedPollMs?: number;
  /** Takes a running slot if one is free. */
  tryTakeSlot(): Promise<SlotHandle | null>;
  /** The slot goes on to another request of this process: it must not expire under it. */
  renewSlot(slot: SlotHandle): Promise<void>;
  /** Frees this slot (a slot released twice is freed once). */
  releaseSlot(slot: SlotHandle): Promise<void>;
  /** Epoch ms before which `weight` more calls would overrun a window or a block; 0 when they may go now. */
  blockedUntil(weight: number, now: number): Promise<number>;
  /** Records calls sent. */
  spend(weight: number, now: number): Promise<void>;
  /** The upstream refused: send nothing until `until`. */
  block(until: number): Promise<void>;
  /** Calls spent in the window of this kind containing `now`. */
  spent(id: QuotaWindowId, now: number): Promise<number>;
}

/** The budget of one process. */
export class MemoryUpstreamBudget implements UpstreamBudget {
  readonly #held = new Set<SlotHandle>();
  #n = 0;
  #blockedUntil = 0;
  readonly #spent = new Map<QuotaWindowId, { start: number; calls: number }>();

  constructor(
    readonly concurrency: number,
    readonly windows: readonly QuotaWindow[],
  ) {}

  tryTakeSlot(): Promise<SlotHandle | null> {
    if (this.#held.size >= this.concurrency) return Promise.resolve(null);
    const slot = { id: `local:${++this.#n}` };
    this.#held.add(slot);
    return Promise.resolve(slot);
  }

  renewSlot(): Promise<void> {
    return Promise.resolve();
  }

  releaseSlot(slot: SlotHandle): Promise<void> {
    this.#held.delete(slot);
    return Promise.resolve();
  }

  async blockedUntil(weight: number, now: number): Promise<number> {
    let until = this.#blockedUntil > now ? this.#blockedUntil : 0;
    for (const w of this.windows) {
      if ((await this.spent(w.id, now)) + weight > w.limit) until = Math.max(until, windowReset(w.id, now));
    }
    return until;
  }

  spend(weight: number, now: number): Promise<void> {
    for (const w of this.windows) {
      const start = Math.floor(now / WINDOW_MS[w.id]) * WINDOW_MS[w.id];
      const s = this.#spent.get(w.id);
      this.#spent.set(w.id, s && s.start === start ? { start, calls: s.calls + weight } : { start, calls: weight });
    }
    return Promise.resolve();
  }

  block(until: number): Promise<void> {
    this.#blockedUntil = Math.max(this.#blockedUntil, until);
    return Promise.resolve();
  }

  spent(id: QuotaWindowId, now: number): Promise<number> {
    const s = this.#spent.get(id);
    const start = Math.floor(now / WINDOW_MS[id]) * WINDOW_MS[id];
    return Promise.resolve(s && s.start === start ? s.calls : 0);
  }
}

interface Waiter {
  ticket: Ticket;
  resolve: (slot: SlotHandle) => void;
}

export interface LaneOptions {
  budget: UpstreamBudget;
  clock: Clock;
  log: Logger;
}

/** One upstream's queue: slots handed out by priority, callers first, first come first served within. */
export class UpstreamLane {
  readonly #waiting: Waiter[] = [];
  // The latest block seen, for synchronous "may we call now?" checks (cache revisions).
  #pausedUntil = 0;
  /** Requests sent, and the most running at once (for tests and the bench). */
  readonly stats = { sent: 0, running: 0, maxRunning: 0, queuedMax: 0 };

  constructor(
    readonly name: string,
    readonly opts: LaneOptions,
  ) {}

  /** Epoch ms until which `weight` more calls may not go (0 = they may). */
  async blockedUntil(weight: number): Promise<number> {
    const until = await this.opts.budget.blockedUntil(weight, this.opts.clock.now().getTime());
    if (until > this.#pausedUntil) this.#pausedUntil = until;
    return until;
  }

  /** Whether the lane is paused for a spent quota, as last seen (synchronous). */
  paused(): boolean {
    return this.#pausedUntil > this.opts.clock.now().getTime();
  }

  /** Waits for a running slot; the caller gives it back with `release(slot)`. */
  async acquire(ticket: Ticket): Promise<SlotHandle> {
    const budget = this.opts.budget;
    let slot = await budget.tryTakeSlot();
    if (!slot) {
      const waiter: Waiter = { ticket, resolve: () => {} };
      const handed = new Promise<SlotHandle>((resolve) => (waiter.resolve = resolve));
      this.#waiting.push(waiter);
      this.stats.queuedMax = Math.max(this.stats.queuedMax, this.#waiting.length);
      // A slot freed while the budget was being asked had no waiter to go to: take it now.
      const freed = await budget.tryTakeSlot();
      if (freed) {
        if (!this.#leave(waiter, freed)) await budget.releaseSlot(freed); // handed one meanwhile: keep that, free this
      } else if (budget.sharedPollMs) {
        void this.#poll(waiter, budget.sharedPollMs);
      }
      slot = await handed;
    }
    this.stats.sent++;
    this.stats.running++;
    this.stats.maxRunning = Math.max(this.stats.maxRunning, this.stats.running);
    return slot;
  }

  /** Takes a waiter out of the queue with the slot it got; false if a release handed it one first. */
  #leave(waiter: Waiter, slot: SlotHandle): boolean {
    const i = this.#waiting.indexOf(waiter);
    if (i < 0) return false;
    this.#waiting.splice(i, 1);
    waiter.resolve(slot);
    return true;
  }

  /** Asks a shared budget for a slot until one is free or a local release hands this waiter one. */
  async #poll(waiter: Waiter, everyMs: number): Promise<void> {
    while (this.#waiting.includes(waiter)) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (!this.#waiting.includes(waiter)) return;
      const slot = await this.opts.budget.tryTakeSlot();
      if (slot) {
        if (!this.#leave(waiter, slot)) await this.opts.budget.releaseSlot(slot);
        return;
      }
    }
  }

  /**
   * Hands the slot to the next waiter (callers first), renewing it so that a chain of hand-overs
   * never outlives a shared slot's expiry, or frees it.
   */
  async release(slot: SlotHandle): Promise<void> {
    this.stats.running--;
    let i = this.#waiting.findIndex((w) => w.ticket.priority === "caller");
    if (i < 0 && this.#waiting.length > 0) i = 0;
    if (i >= 0) {
      const [next] = this.#waiting.splice(i, 1);
      await this.opts.budget.renewSlot(slot);
      next!.resolve(slot);
      return;
    }
    await this.opts.budget.releaseSlot(slot);
  }

  spend(weight: number): Promise<void> {
    return weight > 0 ? this.opts.budget.spend(weight, this.opts.clock.now().getTime()) : Promise.resolve();
  }

  async block(until: number, reason: string): Promise<void> {
    await this.opts.budget.block(until);
    if (until > this.#pausedUntil) this.#pausedUntil = until;
    this.opts.log.warn({ upstream: this.name, until: new Date(until).toISOString(), reason }, `upstream ${this.name}: quota spent, calls paused until the window resets`);
  }
}

/**
 * Refresh-ahead's share of each quota window, and how the day's share is paced (docs/live-data.md
 * "Call budget"): by any moment of a UTC day, the calls spent in it (by anyone) may reach
 * `share × limit × min(1, (elapsed + headstart) / day)` before background work must wait. The rest of
 * each window is left to callers whose answer would otherwise leave the `recent` freshness window.
 */
export interface GovernorOptions {
  budget: UpstreamBudget;
  windows: readonly QuotaWindow[];
  /** Share of each window's limit refresh-ahead may bring the lane's spending to. */
  share: number;
  /** How far ahead of an even pace the day's allowance runs (so a day's first hours are not starved). */
  headstartMs: number;
  clock: Clock;
}

/**
 * The governor of a lane's background work: a refresh that is not owed to a caller goes only while
 * the lane's spending (callers' included, so callers' calls leave less for background work) stays
 * within the paced share of every window. Grants are reserved until their call is counted, so many
 * refreshes decided in one tick cannot all slip under the same allowance.
 */
export class RefreshGovernor {
  #reserved = 0;
  /** Refreshes granted and refused (tests, `npm run budget`). */
  readonly stats = { granted: 0, refused: 0 };

  constructor(readonly opts: GovernorOptions) {}

  /** The calls background work may bring window `id` to at `now`. */
  allowance(w: QuotaWindow, now: number): number {
    const cap = this.opts.share * w.limit;
    if (w.id !== "day") return cap;
    const elapsed = now - Math.floor(now / WINDOW_MS.day) * WINDOW_MS.day;
    return cap * Math.min(1, (elapsed + this.opts.headstartMs) / WINDOW_MS.day);
  }

  /** Reserves `weight` calls for a background refresh, or null when the share is spent; release once the call is counted or abandoned. */
  async reserve(weight: number): Promise<(() => void) | null> {
    const now = this.opts.clock.now().getTime();
    const spent = await Promise.all(this.opts.windows.map((w) => this.opts.budget.spent(w.id, now)));
    // Checked and reserved in one synchronous step: concurrent reservations see each other.
    if (this.opts.windows.some((w, i) => spent[i]! + this.#reserved + weight > this.allowance(w, now))) {
      this.stats.refused++;
      return null;
    }
    this.#reserved += weight;
    this.stats.granted++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#reserved -= weight;
    };
  }
}
