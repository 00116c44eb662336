import { describe, expect, it } from "vitest";
import { intern, internedCount, INTERN_MAX } from "../src/runtime/flat.js";

describe("strings kept once (intern)", () => {
  // Which copy of a string is kept cannot be seen from JavaScript (equal strings are ===); the
  // memory it saves is measured in BENCHMARKS.md. This checks the table: one entry per text, bounded.
  it("keeps one entry per text, gives the text back, and starts again past INTERN_MAX", () => {
    const before = internedCount();
    const text = `Seasonal norm, typical for late November: ${"x".repeat(40)} ${before}`;
    const built = ["Seasonal norm, typical for late November: ", "x".repeat(40), ` ${before}`].join("");
    expect(intern(text)).toBe(text);
    expect(internedCount()).toBe(before + 1);
    expect(intern(built)).toBe(text);
    expect(internedCount()).toBe(before + 1);
    for (let i = internedCount(); i < INTERN_MAX; i++) intern(`period ${i}`);
    expect(internedCount()).toBe(INTERN_MAX);
    intern("one more");
    expect(internedCount()).toBe(1);
    expect(intern("period 3")).toBe("period 3");
  });
});
