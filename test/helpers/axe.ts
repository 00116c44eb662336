// axe-core in real Chromium: injects axe into a page or frame and returns its critical and serious
// violations, each as one readable line (rule, impact, how many elements, the first few targets).
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE_SOURCE: string = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** The widths every served page is checked at: a phone and a laptop. */
export const CHECK_WIDTHS = [390, 1280] as const;

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  await target.evaluate(AXE_SOURCE);
  const result = await target.evaluate<AxeResult>("axe.run(document, { resultTypes: ['violations'] })");
  return result.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(", ")}`);
}

/** How far the document is wider than its viewport, in CSS pixels (0 or less: nothing to scroll sideways). */
export const SIDEWAYS_OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth";
