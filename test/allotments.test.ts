// A key's allotment on a real redis-server: a charge and its refund carry a call id, so a refund is
// counted once however often it is asked, a refund that arrives before its charge (a take still in
// flight to a Redis that hung) keeps the charge from happening, and a take whose answer was lost is
// refunded once Redis answers again: a refused call never costs the key a call.
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Allotments } from "../src/services/metering/meter.js";
import { describeWithRedis, startRedis, type RedisServer } from "./helpers/redis.js";

describeWithRedis("key allotments in Redis", () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  const used = async (key: string) => Number((await redis.get(`oc:allotment:${key}`)) ?? 0);

  it("takes until used up, and gives a call back once however often it is asked", async () => {
    const a = new Allotments(redis);
    expect([await a.take("k1", 2, "c1"), await a.take("k1", 2, "c2"), await a.take("k1", 2, "c3")]).toEqual([true, true, false]);
    expect(await used("k1")).toBe(2);
    await a.giveBack("k1", "c1");
    await a.giveBack("k1", "c1");
    expect(await used("k1")).toBe(1);
    // A call that was never charged (refused as used up) gives nothing back.
    await a.giveBack("k1", "c3");
    expect(await used("k1")).toBe(1);
  });

  it("never charges a call whose refund ran first", async () => {
    const a = new Allotments(redis);
    await a.giveBack("k2", "late");
    expect(await a.take("k2", 5, "late")).toBe(false);
    expect(await used("k2")).toBe(0);
  });

  it("refunds a take whose answer was lost, once Redis answers again", async () => {
    // The take runs in Redis but its answer never arrives (the connection dropped while Redis hung).
    let lose = true;
    const lossy = Object.create(redis) as Redis;
    lossy.eval = (async (...args: Parameters<Redis["eval"]>) => {
      const reply = await redis.eval(...args);
      if (lose) throw new Error("Command timed out");
      return reply;
    }) as Redis["eval"];
    const a = new Allotments(lossy);
    await expect(a.take("k3", 5, "lost")).rejects.toThrow(/timed out/);
    expect(await used("k3")).toBe(1);
    expect(a.pendingRefunds).toBe(1);
    // Still not answering: the refund keeps waiting.
    await a.settlePending();
    expect(a.pendingRefunds).toBe(1);
    lose = false;
    await a.settlePending();
    expect(a.pendingRefunds).toBe(0);
    expect(await used("k3")).toBe(0);
  });
});
