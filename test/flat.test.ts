import { describe, expect, it } from "vitest";
import { intern, internedCount, INTERN_MAX } from "../src/flat.js";

describe("strings kept once (intern)", () => {
  it("gives back the same text, keeps each text once, and never holds more than INTERN_MAX", () => {
    const before = internedCount();
    const text = `Seasonal norm, typical for late November: ${"x".repeat(40)}`;
    const built = ["Seasonal norm, typical for late November: ", "x".repeat(40)].join("");
    expect(intern(text)).toBe(text);
    expect(intern(built)).toBe(text);
    expect(internedCount()).toBeLessThanOrEqual(before + 1);
    for (let i = 0; i < INTERN_MAX + 10; i++) intern(`period ${i}`);
    expect(internedCount()).toBeLessThanOrEqual(INTERN_MAX);
    expect(intern("period 3")).toBe("period 3");
  });
});
