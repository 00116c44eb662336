// axe-core in real Chromium: injects axe into a page or frame and returns its critical and serious
// violations, each as one readable line (rule, impact, how many elements, the first few targets).
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE_SOURCE: string = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** The widths every served page is checked at: a phone and a laptop. */
export const CHECK_WIDTHS = [390, 1280] as const;

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
  passes: unknown[];
}

export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  await target.evaluate(AXE_SOURCE);
  const result = await target.evaluate<AxeResult>("axe.run(document, { resultTypes: ['violations'] })");
  // A run that checked nothing (axe not injected, an empty document) must not pass as clean.
  if (result.passes.length + result.violations.length < 10) throw new Error(`axe-core checked only ${result.passes.length + result.violations.length} rules`);
  return result.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => JSON.stringify(n.target))
          .join(", ")}`,
    );
}

/** How far the document is wider than its viewport, in CSS pixels (0 or less: nothing to scroll sideways). */
export const SIDEWAYS_OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth";
