// Real Chromium for page and view tests (Debian's chromium driven by playwright-core). Tests skip,
// saying why, only when Chromium is absent and CI is unset; under CI a missing browser fails.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe } from "vitest";
import { PROJECT_ROOT } from "../../src/base/paths.js";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(CHROMIUM_PATH);

if (!available && !process.env.CI) {
  console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM_PATH}. Install it with: sudo apt-get install -y chromium`);
}

/** `describe` when Chromium can run (or CI demands it), else `describe.skip`. */
export const describeInBrowser = available || process.env.CI ? describe : describe.skip;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"],
  });
}

/** Where screenshots go (gitignored). */
export function outputPath(name: string): string {
  const dir = join(PROJECT_ROOT, "test-output");
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/**
 * Records what a person would notice going wrong on a page: console errors and warnings, page
 * errors, failed requests and HTTP errors. Call before navigating; the list fills as the page runs.
 */
export function recordPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return problems;
}
