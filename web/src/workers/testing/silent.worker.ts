/** A worker that starts but never says it is ready (the bridge must give up on it). */
export {};
