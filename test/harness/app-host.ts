// A minimal MCP Apps host for the browser test: the official AppBridge from ext-apps, talking to the
// card view in a sandboxed iframe over postMessage. Bundled by esbuild at test time.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

type HostEvent = [kind: "size" | "open" | "initialized", detail: unknown];

declare global {
  interface Window {
    hostLog: HostEvent[];
    runHost(html: string, args: Record<string, unknown>, result: unknown, theme: "light" | "dark"): Promise<void>;
    /** Delivers another tool result to the running view (a host re-running the tool). */
    sendResult(result: unknown): Promise<void>;
    /** Sends the view an MCP ping; resolves with its result or its error. */
    pingView(): Promise<{ result?: unknown; error?: string }>;
  }
}

window.hostLog = [];
window.runHost = async (html, args, result, theme) => {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.style.cssText = "width: 640px; height: 1100px; border: 1px solid #ccc";
  document.body.appendChild(iframe);
  const bridge = new AppBridge(
    null,
    { name: "test-host", version: "1.0.0" },
    { openLinks: {} },
    {
      hostContext: {
        theme,
        displayMode: "inline",
        styles: { variables: { "--font-sans": "DejaVu Sans, sans-serif" } as never },
      },
    },
  );
  bridge.addEventListener("sizechange", (p) => window.hostLog.push(["size", p]));
  bridge.onopenlink = async ({ url }) => {
    window.hostLog.push(["open", url]);
    return {};
  };
  const initialized = new Promise<void>((resolve) =>
    bridge.addEventListener("initialized", () => {
      window.hostLog.push(["initialized", null]);
      resolve();
    }),
  );
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as never);
  window.sendResult = (next) => bridge.sendToolResult(next as never);
  window.pingView = async () => {
    try {
      return { result: await (bridge as unknown as { request(r: { method: string; params: object }, s?: unknown): Promise<unknown> }).request({ method: "ping", params: {} }) };
    } catch (e) {
      return { error: String(e) };
    }
  };
};
