// A bare node:http server that answers recorded responses byte for byte: the floor any
// framework, auth and database work is measured against (run under Node, like the load client).
// argv: <port> <responses.json>, where the file maps "METHOD path" to { status, type, body (base64) }.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const [port, file] = process.argv.slice(2);
const table = new Map(Object.entries(JSON.parse(readFileSync(file, "utf8"))).map(([k, v]) => [k, { ...v, bytes: Buffer.from(v.body, "base64") }]));

createServer((req, res) => {
  // Read (and drop) the request body first, as a real handler would.
  req.resume();
  req.on("end", () => {
    const hit = table.get(`${req.method} ${req.url}`);
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(hit.status, { "content-type": hit.type, "content-length": hit.bytes.length });
    res.end(hit.bytes);
  });
}).listen(Number(port), "127.0.0.1", () => console.log("ready"));
