/** `@vektor/client/node`: file-system helpers (upload a path with resume, save a download) for Node 20+ and Bun. */
export * from "@vektor/shared/client/node";
