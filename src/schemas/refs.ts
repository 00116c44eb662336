// Builders for the small reference objects every response repeats.
import type { Region } from "../catalog/catalog.js";
import type { z } from "zod";
import type { RegionRef } from "./common.js";

export function regionRef(r: Region): z.infer<typeof RegionRef> {
  return { id: r.id, name: r.name, country: r.country, admin1: r.admin1 };
}
