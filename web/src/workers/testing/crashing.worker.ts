/** A worker whose module fails while it loads (the bridge must report WORKER_CRASHED). */
throw new Error("this worker fails while it starts");
