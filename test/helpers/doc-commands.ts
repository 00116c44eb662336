// The commands a reader can copy from the documentation: every line of every ```sh block in README.md
// and docs/*.md, with `\` continuations joined and comments dropped. The docs test runs them or
// names why one cannot run in a test, so a command added to the docs is covered the day it appears.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { PROJECT_ROOT } from "../../src/base/paths.js";
import { exampleDocuments } from "../../scripts/readme-examples.js";

export interface DocCommand {
  /** The document, relative to the project root. */
  doc: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as one line (continuations joined, trailing comment dropped). */
  text: string;
  /** The block's variable assignments before this command (`day=$(…)`), which the command may use. */
  setup: string[];
}

const FENCE = /^```(sh|bash|shell|console)\s*$/;

/** Drops a trailing `# comment` outside quotes; returns the code and the quote still open at its end. */
function stripComment(line: string, open: string | null): { code: string; quote: string | null } {
  let quote = open;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i).trimEnd(), quote };
  }
  return { code: quote ? line : line.trimEnd(), quote };
}

/** Every command in the shell blocks of one Markdown text. */
export function commandsIn(doc: string, text: string): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const setup: string[] = [];
    let pending: { line: number; text: string; quote: string | null } | null = null;
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) {
      const raw = pending ? lines[i]! : lines[i]!.replace(/^\s*\$\s+/, "");
      const { code, quote } = stripComment(raw, pending?.quote ?? null);
      if (!pending && code.trim() === "") continue;
      if (pending) pending.text += pending.quote ? "\n" + code : " " + code.trim();
      else pending = { line: i + 1, text: code.trim(), quote: null };
      pending.quote = quote;
      // A command goes on after a trailing backslash or inside an open quote.
      if (quote) continue;
      if (pending.text.endsWith("\\")) {
        pending.text = pending.text.slice(0, -1).trimEnd();
        continue;
      }
      const command = pending.text;
      out.push({ doc, line: pending.line, text: command, setup: [...setup] });
      if (/^[A-Za-z_][A-Za-z0-9_]*=\$\(/.test(command)) setup.push(command);
      pending = null;
    }
  }
  return out;
}

/** Every command a reader can copy from README.md and docs/*.md. */
export function documentedCommands(): DocCommand[] {
  return exampleDocuments().flatMap((path) => commandsIn(relative(PROJECT_ROOT, path), readFileSync(path, "utf8")));
}

/** One MCP server entry of a host configuration shown in the docs (a ```json block with `mcpServers`). */
export interface HostConfig {
  doc: string;
  line: number;
  server: { type?: string; url?: string; command?: string; args?: string[]; env?: Record<string, string> };
}

/** Every MCP host configuration in README.md and docs/*.md. */
export function documentedHostConfigs(): HostConfig[] {
  return exampleDocuments().flatMap((path) => {
    const doc = relative(PROJECT_ROOT, path);
    const text = readFileSync(path, "utf8");
    return [...text.matchAll(/^```json\n([\s\S]*?)\n```/gm)]
      .filter((m) => m[1]!.includes('"mcpServers"'))
      .flatMap((m) => {
        const line = text.slice(0, m.index).split("\n").length;
        const servers = (JSON.parse(m[1]!) as { mcpServers: Record<string, HostConfig["server"]> }).mcpServers;
        return Object.values(servers).map((server) => ({ doc, line, server }));
      });
  });
}
