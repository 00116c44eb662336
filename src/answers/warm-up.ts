// Start-up warm-up: the work a fresh process would otherwise do on its first questions. The tide
// tables of every station, then one decision and one conditions answer per region, so the engine,
// the decision code, the cards and the serialisers are compiled and the first real question is
// answered at the speed of the rest (measured in BENCHMARKS.md). /readyz reports `starting` until
// this is done, so a balancer sends traffic only to an instance that answers at its normal speed.
//
// Offline, the warm-up answers are the real ones and go into the answer cache. With live data the
// warm-up runs against the embedded seasonal norms instead, on a forecast service of its own: it
// exercises the same code without spending the upstreams' budget or filling caches with norms.
import type { ServiceContext } from "../services/context.js";
import { ForecastService } from "../forecast/service.js";
import { tool as getConditions } from "./get-conditions.js";
import { tool as recommendSpot } from "./recommend-spot.js";
import type { ToolDefinition } from "./tool.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

export async function warmUp(ctx: ServiceContext): Promise<void> {
  await ctx.harmonicTides.warm(
    ctx.catalog.spots.flatMap((s) => (s.tide_station === null ? [] : [s.tide_station])),
    ctx.clock.now(),
  );
  const offline = ctx.upstreams === null;
  const scratch: ServiceContext = offline
    ? ctx
    : { ...ctx, forecasts: new ForecastService({ source: ctx.climatology, tides: ctx.harmonicTides, clock: ctx.clock, normals: ctx.climatology }, ctx.catalog) };
  const answer = async <T>(t: ToolDefinition<T>, args: Record<string, unknown>) => {
    await nextTurn(); // requests arriving meanwhile are served between the steps
    if (!offline) {
      const value = await t.run(args, scratch);
      JSON.stringify(value);
      t.markdown(value, scratch);
      return;
    }
    const cached = await ctx.answers.get(t.operation, args, (a) => t.run(a, ctx));
    cached.markdown ??= t.markdown(cached.value, ctx);
  };
  for (const region of ctx.catalog.regions) {
    await answer(recommendSpot, { activity: "snorkel", region: region.id });
    const first = region.spots[0];
    if (first) await answer(getConditions, { spot: first.id });
  }
}
