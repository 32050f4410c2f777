/** The graph of a blank workflow: one step, the uploaded files a run is given (a workflow needs a source). */
export const BLANK_GRAPH_JSON = JSON.stringify({
  nodes: [{ id: "source", type: "source.upload", position: { x: 80, y: 80 }, data: { type: "source.upload" } }],
  edges: [],
});
