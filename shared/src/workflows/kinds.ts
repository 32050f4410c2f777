/** Node types the graph semantics treats apart (the server's node registry and the web editor name them from here). */

/** The type of the node that brings files into a run (every graph needs one); inside a sub-workflow it passes on its inputs. */
export const SOURCE_TYPE = "source.upload";
/** The type of the node that runs another workflow (its exits give what the node gives). */
export const SUB_WORKFLOW_TYPE = "op.workflow";
