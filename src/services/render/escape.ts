// Escaping values placed in HTML and in SVG (which is XML): the share and forecast pages, the
// forecast chart, the docs page and the share card's drawing all use this one function.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Escapes a value for HTML text and double- or single-quoted attributes, and for SVG. Control
 * characters other than tab, newline and carriage return become spaces: XML forbids them (resvg
 * refuses a card that carries one) and HTML treats them as errors.
 */
export function esc(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "";
  return (
    String(v)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, " ")
      .replace(/[&<>"']/g, (c) => ESCAPES[c]!)
  );
}
