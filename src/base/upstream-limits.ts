// What the upstreams allow a client, as published or measured (docs/live-data.md, section "Limits").

/**
 * Open-Meteo's free tier, per client IP: requests running at once, and weighted calls per UTC
 * minute, hour and day (open-meteo RateLimiter.swift; open-meteo#1493, #1295).
 */
export const OPEN_METEO_FREE_TIER = { concurrency: 1, perMinute: 600, perHour: 5_000, perDay: 10_000 } as const;
