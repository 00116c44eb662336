// Holds idle TCP connections for the abuse bench (a process can hold only so many descriptors):
// argv: port, count, first address index. Opens `count` sockets, 200 per loopback address, reports
// how many connected, then on "count" reports how many are still open, and on "close" exits.
import { connect } from "node:net";

const [port, count, first] = process.argv.slice(2).map(Number);
const held = [];
let refused = 0;
for (let k = 0; k < count; k++) {
  const a = first + Math.floor(k / 200);
  const localAddress = `127.0.${10 + Math.floor(a / 250)}.${1 + (a % 250)}`;
  await new Promise((resolve) => {
    const s = connect({ host: "127.0.0.1", port, localAddress }, resolve);
    s.on("error", () => {
      refused++;
      resolve();
    });
    held.push(s);
  });
}
process.send({ opened: count - refused, refused });
process.on("message", (m) => {
  if (m === "count") process.send({ open: held.filter((s) => !s.destroyed && !s.readableEnded).length });
  if (m === "close") {
    for (const s of held) s.destroy();
    process.exit(0);
  }
});
