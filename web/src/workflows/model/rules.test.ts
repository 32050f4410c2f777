import { describe, expect, it } from "vitest";
import { canConnect, flowOf, stepLabel } from "./rules";
import { CATALOG, deepFreeze, graph } from "./testing/catalog";

const refusal = (g: ReturnType<typeof graph>, source: string, target: string) => {
  const out = canConnect(deepFreeze(g), source, target, CATALOG);
  return out.ok ? null : out.reason;
};

describe("canConnect: structure", () => {
  const g = graph(
    [
      ["start", "trigger.manual"],
      ["source", "source.upload"],
      ["compress", "op.pdf.compress"],
      ["zip", "sink.zip"],
    ],
    ["start>source", "source>compress", "compress>zip"],
  );

  it("allows an edge the formats and the order allow", () => {
    expect(canConnect(g, "source", "zip", CATALOG)).toEqual({ ok: true });
  });

  it("refuses a step to itself", () => {
    expect(refusal(g, "compress", "compress")).toBe("Compress PDF cannot lead into itself");
  });

  it("refuses an edge that exists", () => {
    expect(refusal(g, "source", "compress")).toBe("Uploaded files already leads into Compress PDF");
  });

  it("refuses a trigger as a target: it is where a run starts", () => {
    expect(refusal(g, "source", "start")).toBe("Manual start is where a run starts: no step can lead into it");
  });

  it("refuses a loop, naming which step already leads to which", () => {
    expect(refusal(g, "zip", "source")).toBe("Connecting ZIP to Uploaded files would make a loop: Uploaded files already leads to ZIP");
    // Through several steps too.
    const chain = graph(
      [
        ["a", "logic.merge"],
        ["b", "logic.approval"],
        ["c", "sink.download"],
      ],
      ["a>b", "b>c"],
    );
    expect(refusal(chain, "c", "a")).toBe("Connecting Download to Merge branches would make a loop: Merge branches already leads to Download");
  });

  it("refuses steps that do not exist", () => {
    expect(refusal(g, "nope", "zip")).toBe('There is no step "nope" in this workflow');
    expect(refusal(g, "zip", "gone")).toBe('There is no step "gone" in this workflow');
  });

  it("lets a sink lead on: its outputs stay the run's outputs, and the server allows it", () => {
    const rename = graph(
      [
        ["source", "source.upload"],
        ["rename", "sink.rename"],
        ["zip", "sink.zip"],
      ],
      ["source>rename"],
    );
    expect(canConnect(rename, "rename", "zip", CATALOG)).toEqual({ ok: true });
  });

  it("names twins by id so two steps of one kind can be told apart", () => {
    const twins = graph(
      [
        ["compress", "op.pdf.compress"],
        ["compress-2", "op.pdf.compress"],
      ],
      ["compress>compress-2"],
    );
    expect(stepLabel(twins.nodes[0], twins, CATALOG)).toBe("Compress PDF (compress)");
    expect(refusal(twins, "compress-2", "compress")).toBe("Connecting Compress PDF (compress-2) to Compress PDF (compress) would make a loop: Compress PDF (compress) already leads to Compress PDF (compress-2)");
  });
});

describe("canConnect: formats, as the server's validation judges them", () => {
  it("refuses a target that accepts none of what the source produces", () => {
    const g = graph(
      [
        ["source", "source.upload"],
        ["render", "op.pdf.render-png"],
        ["compress", "op.pdf.compress"],
      ],
      ["source>render"],
    );
    expect(refusal(g, "render", "compress")).toBe("Compress PDF accepts pdf, but PDF to PNG produces png");
  });

  it("flows formats through pass-through steps (merge, approval, rename)", () => {
    const g = graph(
      [
        ["source", "source.upload"],
        ["render", "op.pdf.render-png"],
        ["merge", "logic.merge"],
        ["approval", "logic.approval"],
        ["compress", "op.pdf.compress"],
        ["thumb", "op.media.thumbnail"],
      ],
      ["source>render", "render>merge", "merge>approval"],
    );
    expect(refusal(g, "approval", "compress")).toBe("Compress PDF accepts pdf, but Approval produces png");
    expect(refusal(g, "approval", "thumb")).toBe("Video thumbnail accepts mp4, webm, ogg, but Approval produces png");
    // Another branch into the merge brings PDFs along: now some of what it gives fits.
    const both = { ...g, edges: [...g.edges, { id: "x", source: "source", target: "merge" }] };
    expect(canConnect(both, "approval", "compress", CATALOG)).toEqual({ ok: true });
  });

  it("reads what params pick: a convert's target format, a filter's formats", () => {
    const g = graph(
      [
        ["source", "source.upload"],
        ["cad", "op.cad.convert", { format: "stl" }],
        ["pdfs", "logic.filter", { formats: ["pdf"] }],
        ["gis", "op.gis.convert"],
        ["compress", "op.pdf.compress"],
      ],
      ["source>cad", "source>pdfs"],
    );
    expect(refusal(g, "pdfs", "gis")).toBe("Convert GIS vector data accepts geojson, gpkg, shapefile-zip, kml, csv, flatgeobuf, dxf, but Filter files produces pdf");
    expect(canConnect(g, "pdfs", "compress", CATALOG)).toEqual({ ok: true });
    // The default format (glb) is picked when params leave it out: still not a PDF.
    const byDefault = graph([["cad", "op.cad.convert", {}], ["compress", "op.pdf.compress"]]);
    expect(refusal(byDefault, "cad", "compress")).toBe("Compress PDF accepts pdf, but Convert CAD to mesh produces glb");
  });

  it("applies data.io narrowing on both sides", () => {
    const g = graph(
      [
        ["source", "source.upload"],
        ["meta", "op.pdf.metadata"],
        ["compress", "op.pdf.compress"],
        ["any", "sink.download"],
      ],
      ["source>meta"],
      { meta: { produces: ["json"] }, any: { accepts: ["zip"] } },
    );
    expect(refusal(g, "meta", "compress")).toBe("Compress PDF accepts pdf, but PDF metadata produces json");
    expect(refusal(g, "meta", "any")).toBe("Download accepts zip, but PDF metadata produces json");
  });

  it("refuses a trigger straight into a tool: a trigger gives no files", () => {
    const g = graph([
      ["start", "trigger.webhook"],
      ["compress", "op.pdf.compress"],
      ["source", "source.upload"],
    ]);
    expect(refusal(g, "start", "compress")).toBe("Compress PDF accepts pdf, but Webhook produces no files");
    expect(canConnect(g, "start", "source", CATALOG)).toEqual({ ok: true });
  });

  it("does not refuse from a pass-through step with nothing leading into it yet", () => {
    const g = graph([
      ["merge", "logic.merge"],
      ["compress", "op.pdf.compress"],
    ]);
    expect(canConnect(g, "merge", "compress", CATALOG)).toEqual({ ok: true });
  });

  it("takes anything from a sub-workflow and from a kind the catalog does not know", () => {
    const g = graph([
      ["sub", "op.workflow", { workflowId: "wf_1" }],
      ["odd", "op.future.thing"],
      ["compress", "op.pdf.compress"],
    ]);
    expect(canConnect(g, "sub", "compress", CATALOG)).toEqual({ ok: true });
    expect(canConnect(g, "odd", "compress", CATALOG)).toEqual({ ok: true });
  });

  it("lets anything into steps that accept any format", () => {
    const g = graph(
      [
        ["source", "source.upload"],
        ["render", "op.pdf.render-png"],
        ["zip", "sink.zip"],
      ],
      ["source>render"],
    );
    expect(canConnect(g, "render", "zip", CATALOG)).toEqual({ ok: true });
  });
});

describe("flowOf", () => {
  it("gives each step's formats, and null for a graph that loops", () => {
    const g = graph(
      [
        ["source", "source.upload"],
        ["render", "op.pdf.render-png"],
        ["zip", "sink.zip"],
      ],
      ["source>render", "render>zip"],
    );
    const flow = flowOf(g, CATALOG)!;
    expect([...flow.formats.get("render")!]).toEqual(["png"]);
    expect([...flow.formats.get("zip")!]).toEqual(["zip"]);
    expect(flowOf({ ...g, edges: [...g.edges, { id: "back", source: "zip", target: "source" }] }, CATALOG)).toBeNull();
  });
});

describe("canConnect on a big graph", () => {
  it("answers a drag's many questions from one flow per graph (500 steps)", () => {
    const types = CATALOG.filter((e) => e.category !== "trigger").map((e) => e.type);
    const nodes = Array.from({ length: 500 }, (_, i) => [`n${i}`, i === 0 ? "source.upload" : types[i % types.length]] as [string, string]);
    const edges = new Set<string>();
    for (let i = 1; i < 500; i++) edges.add(`n${Math.floor(i / 2)}>n${i}`).add(`n${Math.floor(i / 3)}>n${i}`);
    const g = graph(nodes, [...edges]);
    canConnect(g, "n1", "n400", CATALOG);
    const started = performance.now();
    for (let k = 0; k < 50; k++) canConnect(g, `n${10 + k}`, `n${400 + k}`, CATALOG);
    // Well under a frame each (a drag asks on every handle it passes); generous for a busy machine.
    expect((performance.now() - started) / 50).toBeLessThan(8);
  });
});
