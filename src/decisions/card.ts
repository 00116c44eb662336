// The SpotCard (spec section 2): a pick as a host renders it — tier colour, score, window, formatted
// metrics, links to the share page, the image and the forecast, and the credits to show with it.
import type { Activity } from "../base/activities.js";
import { creditsText, SERVICE_NAME, type DataCredit } from "../base/attribution.js";
import type { Spot } from "../catalog/catalog.js";
import { ruleOf, spearfishingTag } from "../catalog/regulations.js";
import type { ServiceContext } from "../services/context.js";
import type { PeriodResult } from "../forecast/engine.js";
import { SEASONAL_NORM_LABEL, tierLabelFor, typicalFor } from "../model/norms.js";
import { NO_DATA_COLOR, tierById } from "../model/tiers.js";
import { formatSwell, formatTemp, formatVisibility, formatWind } from "../model/format.js";
import type { SpotCardJson } from "../schemas/decisions.js";
import { dateLabel, localHHMM } from "../base/zone.js";

const ACTIVITY_NOUN: Record<Activity["id"], string> = {
  snorkel: "snorkeling",
  dive: "diving",
  freedive: "freediving",
  spearfish: "spearfishing",
  surf: "surfing",
};

export interface CardInput {
  spot: Spot;
  date: string;
  today: string;
  activity: Activity | null;
  period: PeriodResult | null;
  credits: readonly DataCredit[];
}

/** The rules a spearfishing card's headline must carry where the spot lies (gear limits, rules not checked), or null. */
function rulesTag(ctx: Pick<ServiceContext, "regulations">, c: CardInput): string | null {
  if (c.activity?.id !== "spearfish" || !ctx.regulations.readable) return null;
  return spearfishingTag(
    ctx.regulations
      .areasFor(c.spot.id)
      .filter((a) => a.designation === "rules_only")
      .map(ruleOf),
  );
}

export function buildCard(ctx: Pick<ServiceContext, "links" | "regulations">, c: CardInput): SpotCardJson {
  const tz = c.spot.timezone;
  const p = c.period;
  const tier = p?.rating ? tierById(p.rating) : null;
  const window = p ? { start_local: localHHMM(p.start, tz), end_local: localHHMM(p.end, tz) } : null;
  const activityId = c.activity?.id ?? null;
  const forecast = ctx.links.spotPage(c.spot.id);
  const tag = rulesTag(ctx, c);
  return {
    version: 1,
    spot_id: c.spot.id,
    spot_name: c.spot.name,
    region_name: c.spot.region.name,
    date: c.date,
    date_label: dateLabel(c.date, c.today),
    activity: activityId,
    tier: tier?.id ?? null,
    // A score from seasonal norms carries the label beside it wherever the card is drawn.
    tier_label: tier ? tierLabelFor(tier.label, p?.seasonal ?? false) : "Not rated",
    tier_color: tier?.color ?? NO_DATA_COLOR,
    score: p?.score ?? null,
    // Unranked activities (surf) get a conditions headline: the score was not made for them.
    // Seasonal norms say what is typical for the time of year, not what that day will bring.
    headline:
      tier && window
        ? `${p?.seasonal ? `${typicalFor(c.date)} (${SEASONAL_NORM_LABEL}, not a forecast): ${tier.label.toLowerCase()}` : tier.label} ` +
          `${c.activity && c.activity.model !== "unsupported" ? ACTIVITY_NOUN[c.activity.id] : "conditions"}${tag ? ` (${tag})` : ""}, ${window.start_local}–${window.end_local}`
        : null,
    best_window: window,
    metrics: {
      visibility: formatVisibility(p?.visFt ?? null, p?.json.visibility_m ?? null, p?.json.visibility_low_ft ?? null, p?.json.visibility_high_ft ?? null),
      swell: formatSwell(p?.swellFt ?? null, p?.swellPeriodS ?? null, p?.swellFromDeg ?? null, p?.json.swell_height_m ?? null),
      wind: formatWind(p?.windKt ?? null, p?.windFromDeg ?? null, p?.gustKt ?? null),
      water_temp: formatTemp(p?.waterTempC ?? null),
    },
    image_url: ctx.links.cardImage(c.spot.id, c.date, activityId),
    links: {
      share: ctx.links.share(c.spot.id, c.date, activityId),
      app: ctx.links.app(c.spot.id, c.date, activityId ?? undefined),
      forecast,
    },
    cta: {
      label: "See the 7-day forecast",
      text: `Every 3-hour period, tides and daylight for ${c.spot.name}.`,
      url: forecast,
    },
    attribution: `${SERVICE_NAME} · ${ctx.links.base}`,
    credits_text: creditsText(c.credits),
  };
}
