/** Where a conversion runs (engine.ts), for the real tools of the registry. */
import { listManifests } from "@vektor/wasm-tools";
import { describe, expect, test } from "vitest";
import { mergeTools, type ToolInfo } from "../../tools/catalog";
import { ENGINE_BYTES } from "../../tools/memory";
import { autoEngine, deviceBlocked, deviceGaveUp, serverBlocked } from "./engine";

const MB = 1024 * 1024;
const GB = 1024 * MB;
const [compress] = mergeTools(listManifests().filter((m) => m.slug === "pdf.compress"), undefined) as [ToolInfo];
const both: ToolInfo = { ...compress, onServer: true };
const serverOnly: ToolInfo = { ...compress, onDevice: false, onServer: true };
const facts = { tool: both, sizes: [1 * MB, 2 * MB], browserMaxBytes: 50 * MB, memoryBudget: 4 * GB, deviceFailed: false };

describe("autoEngine", () => {
  test("this device when the tool runs here and every file is within the limit", () => {
    expect(autoEngine(facts)).toEqual({ engine: "device", reason: "Your files stay on this device." });
    expect(autoEngine({ ...facts, sizes: [50 * MB] }).engine).toBe("device");
    expect(autoEngine({ ...facts, tool: undefined, sizes: [] }).engine).toBe("device");
  });

  test("the server when a file is over the limit, naming the limit", () => {
    expect(autoEngine({ ...facts, sizes: [1 * MB, 50 * MB + 1] })).toEqual({ engine: "server", reason: "A file is over 50 MB, the most this device runs." });
  });

  test("the tool's own limit when it is below processing.browser_max_mb", () => {
    const small = { ...both, maxInputBytes: 10 * MB };
    expect(autoEngine({ ...facts, tool: small, sizes: [10 * MB] }).engine).toBe("device");
    expect(autoEngine({ ...facts, tool: small, sizes: [10 * MB + 1] })).toEqual({ engine: "server", reason: "A file is over 10 MB, the most this device runs." });
  });

  test("the server when one run would need more memory than this device gives a tab, saying how much", () => {
    // pdf.compress's measured figure, not a made-up one: the test follows its manifest.
    const perByte = compress.memoryPerInputByte!;
    expect(perByte).toBeGreaterThan(0);
    const roomy = { ...facts, browserMaxBytes: 2 * GB };
    const file = 300 * MB;
    const need = ENGINE_BYTES.pdf! + file * perByte;
    expect(autoEngine({ ...roomy, sizes: [file], memoryBudget: need }).engine).toBe("device");
    const short = autoEngine({ ...roomy, sizes: [file], memoryBudget: need - 1 });
    expect(short.engine).toBe("server");
    expect(short.reason).toMatch(/^Compress PDF on this 300 MB file needs about \d(\.\d)? GB of memory, more than this device can give a tab \(about \d(\.\d)? GB\)\.$/);
  });

  test("a tool that takes several files runs once over all of them: their total counts", () => {
    const [merge] = mergeTools(listManifests().filter((m) => m.slug === "pdf.merge"), undefined) as [ToolInfo];
    const need = ENGINE_BYTES.pdf! + 200 * MB * merge.memoryPerInputByte!;
    const choice = autoEngine({ ...facts, tool: merge, browserMaxBytes: 2 * GB, sizes: [100 * MB, 100 * MB], memoryBudget: need - 1 });
    expect(choice).toEqual({ engine: "server", reason: expect.stringMatching(/^Merge PDFs on these 2 files \(200 MB\) needs about /) });
    expect(autoEngine({ ...facts, tool: merge, browserMaxBytes: 2 * GB, sizes: [100 * MB, 100 * MB], memoryBudget: need }).engine).toBe("device");
  });

  test("a tool whose memory is not measured is held to the size limits only", () => {
    const unmeasured = { ...both, memoryPerInputByte: undefined };
    expect(autoEngine({ ...facts, tool: unmeasured, sizes: [50 * MB], memoryBudget: 1 }).engine).toBe("device");
  });

  test("the server when the tool runs there only, or when this device failed to run it", () => {
    expect(autoEngine({ ...facts, tool: serverOnly })).toEqual({ engine: "server", reason: `${compress.title} runs on the server only.` });
    expect(autoEngine({ ...facts, deviceFailed: true })).toEqual({ engine: "server", reason: "This device could not run it; the server can." });
  });
});

describe("serverBlocked", () => {
  const ready = { online: true, signedIn: true, cloudEnabled: true, tool: both };

  test("null when the server can take the run", () => {
    expect(serverBlocked(ready)).toBeNull();
    expect(serverBlocked({ ...ready, tool: undefined })).toBeNull();
  });

  test("each reason it cannot, the network first", () => {
    expect(serverBlocked({ ...ready, online: false, signedIn: false })).toBe("The server needs a network connection; you are offline.");
    expect(serverBlocked({ ...ready, cloudEnabled: false, signedIn: false })).toBe("Running tools on the server is turned off on this installation.");
    expect(serverBlocked({ ...ready, tool: compress, signedIn: false })).toBe(`${compress.title} does not run on the server.`);
    expect(serverBlocked({ ...ready, signedIn: false })).toBe("Sign in to run tools on the server.");
  });

  test("a file over the tool's limit on the server (GET /api/tools/lookup maxInputBytes)", () => {
    const capped = { ...both, serverMaxBytes: 256 * MB };
    expect(serverBlocked({ ...ready, tool: capped, sizes: [256 * MB] })).toBeNull();
    expect(serverBlocked({ ...ready, tool: capped, sizes: [1 * MB, 300 * MB], signedIn: false })).toBe(`A file is over 256 MB, the most the server takes for ${compress.title}.`);
  });
});

describe("deviceBlocked", () => {
  test("only a tool that does not run in the browser", () => {
    expect(deviceBlocked(both)).toBeNull();
    expect(deviceBlocked(undefined)).toBeNull();
    expect(deviceBlocked(serverOnly)).toBe(`${compress.title} does not run in this browser.`);
  });

  test("a file over the tool's own limit; processing.browser_max_mb alone does not block a pick", () => {
    const limit = compress.maxInputBytes!;
    expect(deviceBlocked(both, [limit])).toBeNull();
    expect(deviceBlocked(both, [limit + 1])).toBe(`A file is over ${limit / MB} MB, the most ${compress.title} takes in this browser.`);
  });
});

describe("deviceGaveUp", () => {
  test("a crashed worker or memory running out offers the server; a tool's own error does not", () => {
    expect(deviceGaveUp("WORKER_CRASHED", "The tool worker crashed")).toBe(true);
    expect(deviceGaveUp("TOOL_FAILED", "RangeError: Out of memory")).toBe(true);
    expect(deviceGaveUp("TOOL_FAILED", "memory access out of bounds")).toBe(true);
    expect(deviceGaveUp("INPUT_INVALID", "Not a PDF")).toBe(false);
    expect(deviceGaveUp("CANCELLED", "The run was cancelled")).toBe(false);
  });
});
