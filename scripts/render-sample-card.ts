// Renders docs/sample-card.png: the top snorkel pick on Oʻahu for tomorrow (or a conditions card), from the embedded
// offline data with the test suite's pinned clock, so the image only changes when the data or layout do.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spotDay } from "../src/decisions/spot-day.js";
import { FixedClock } from "../src/base/clock.js";
import { loadConfig } from "../src/base/config.js";
import { createContext } from "../src/compose.js";
import { createLogger } from "../src/base/logger.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { cardImageModel } from "../src/services/render/card-image.js";
import { recommendSpot } from "../src/answers/recommend-spot.js";

const NOW = "2026-11-21T19:00:00Z";
const config = loadConfig({ DATA_SOURCE: "offline", PUBLIC_BASE_URL: "https://oceanconditions.example", LOG_LEVEL: "silent" });
const ctx = createContext({ config, clock: new FixedClock(NOW), log: createLogger("silent") });
const rec = await recommendSpot({ activity: "snorkel", region: "us-hi-oahu", date: "2026-11-22" }, ctx);
// While O'ahu is published conditions_only (docs/model.md, calibration) there is no pick: the
// sample is then Hanauma Bay's general-conditions card for the same day.
const pick = rec.picks[0];
const day = pick ? await spotDay({ spot: pick.spot.id, date: pick.date, activity: "snorkel" }, ctx) : await spotDay({ spot: "hanauma-bay", date: "2026-11-22" }, ctx);
const png = await ctx.cardImages.render(cardImageModel(day));
const out = join(PROJECT_ROOT, "docs", "sample-card.png");
writeFileSync(out, png);
console.log(`${out}: ${day.spot.name}, ${day.card.tier_label} ${day.card.score}, ${png.length} bytes (${day.card.image_url})`);
await ctx.close();
