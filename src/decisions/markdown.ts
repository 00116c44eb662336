// Picks as Markdown, for hosts that show text only: everything a model needs to relay a pick —
// tier, score, window, metrics, why, caveats, links, credits and the disclaimer.
import { DISCLAIMER, sourceLine, unionCredits } from "../base/attribution.js";
import { isSeasonalTierLabel, SEASONAL_NORM_LABEL, typicalFor } from "../model/norms.js";
import { mdEscape } from "./md-escape.js";
import type { PickJson } from "../schemas/decisions.js";

/** `table`: lines placed after the picks and before the source line (best_day's strip of days). */
export function picksMarkdown(title: string, picks: readonly PickJson[], baseUrl: string, message: string | null, table: readonly string[] = []): string {
  const lines = [`## ${mdEscape(title)}`, ""];
  if (message) lines.push(mdEscape(message), "");
  for (const p of picks) {
    const c = p.card;
    lines.push(
      `### ${p.rank}. ${mdEscape(p.spot.name)} — ${c.tier_label} ${c.score}/100`,
      `**${isSeasonalTierLabel(c.tier_label) ? `${typicalFor(p.date)}, from ${SEASONAL_NORM_LABEL}s (not a forecast for ${c.date_label}, ${p.date})` : `${c.date_label} (${p.date})`}, ${c.best_window?.start_local}–${c.best_window?.end_local}**${p.distance_km === null ? "" : ` · ${p.distance_km} km away`} · ${mdEscape(p.spot.region.name)}`,
      "",
      `- Visibility: ${c.metrics.visibility ?? "unknown"}`,
      `- Swell: ${c.metrics.swell ?? "unknown"}`,
      `- Wind: ${c.metrics.wind ?? "unknown"}`,
      `- Water: ${c.metrics.water_temp ?? "unknown"}${p.metrics.tide_state ? ` · tide ${p.metrics.tide_state}` : ""}`,
      `- Confidence: ${p.confidence.label} (${p.confidence.value})`,
      "",
      `> ${mdEscape(p.why.summary)}${p.why.versus_next ? ` ${mdEscape(p.why.versus_next)}` : ""}`,
    );
    if (p.why.model_note) lines.push(`> ${mdEscape(p.why.model_note)}`);
    if (p.caveats.length > 0) lines.push("", ...p.caveats.map((cv) => `- ⚠️ ${mdEscape(cv.message)}`));
    lines.push("", `[7-day forecast](${c.links.forecast}) · [Share](${c.links.share}) · [Image](${c.image_url})`, "");
  }
  const credits = unionCredits(picks.map((p) => p.data_credits));
  // Licences such as Open-Meteo's CC BY 4.0 ask for a link next to the data wherever it is shown.
  if (credits.length > 0) lines.push(`_Data: ${credits.map((c) => `[${mdEscape(c.credit)}](${c.url})`).join(" · ")}_`);
  lines.push(`_${DISCLAIMER}_`, "", ...(table.length > 0 ? [...table, ""] : []), sourceLine(baseUrl));
  return lines.join("\n");
}
