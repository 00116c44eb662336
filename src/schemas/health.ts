// Bodies of the liveness and readiness checks (GET /healthz, GET /readyz), for the OpenAPI document.
// Loose objects: a check may add detail beside `status` without breaking a caller that reads only it.
import { z } from "zod";

export const HealthSchema = z.looseObject({ status: z.literal("ok") }).meta({ id: "Health", description: "The process is up and answering." });

export const ReadinessSchema = z
  .looseObject({ status: z.enum(["ok", "starting"]).meta({ description: "ok: catalogue and tide data are loaded; starting: not yet" }) })
  .meta({ id: "Readiness", description: "Whether this instance should receive traffic." });
