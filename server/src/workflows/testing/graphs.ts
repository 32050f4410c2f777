/** Test helpers: graphs from short rows, and a resolver over a map of workflows (shared with shared/'s own tests). */
export { chainOf, graphOf, resolverOf, type NodeRow } from "@vektor/shared/workflows/testing";
