// Markdown escaping for names and text people see in the Markdown answers (the picks, the tools' cards).

/** Escapes the characters Markdown would treat as formatting in user-visible names and text. */
export function mdEscape(s: string): string {
  return s.replace(/([\\`*_[\]|<>#])/g, "\\$1");
}
