// The share card's size and the memory its images may take.

/** Share images kept in memory (PNG bytes); at ~70 KB each this holds some 340 cards, the popular ones protected from scans. */
export const CARD_CACHE_MAX_BYTES = 24 * 1024 * 1024;
/** Share image size (Open Graph's recommended 1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
