/**
 * Workflow runs made on this device, kept in the browser (IndexedDB, database `vektor-device-runs`):
 * what the runs list shows under "This device" and what a device run's page reads. A run keeps
 * its steps (status, error, the names of the files each gave) and its outputs' names, sizes
 * and formats, never the files' bytes: those stay where the person saved them, so the browser's
 * storage is not filled with copies. Plain IndexedDB: one object store keyed by run id, with an
 * index on the start time so the newest come first.
 */
import type { RunStatus, StepStatus } from "@vektor/shared/schemas/vocab";

/** A file a run took or gave, by name (its bytes are not kept). */
export interface DeviceFile {
  name: string;
  size: number;
  /** Format id from shared/formats, or null when none matched. */
  format: string | null;
}

export interface DeviceRunStep {
  /** The plan's node id (`<op.workflow id>/<child id>` inside a sub-workflow). */
  nodeId: string;
  type: string;
  /** What a person reads for the step: its kind's title. */
  title: string;
  /** The op.workflow step it was inlined under, or null at the top. */
  parentNodeId: string | null;
  status: StepStatus;
  startedAt: string | null;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  /** Names of the files the step gave. */
  outputs: string[];
  logs: string[];
}

export interface DeviceRun {
  id: string;
  /** Always "device": lets a list that mixes server and device runs tell them apart. */
  engine: "device";
  workflowId: string;
  workflowName: string;
  /** The version run (the editor's saved version), or null for an unsaved graph. */
  versionId: string | null;
  status: RunStatus;
  /** ISO times. */
  createdAt: string;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  inputs: DeviceFile[];
  outputs: DeviceFile[];
  steps: DeviceRunStep[];
}

export interface DeviceRunFilter {
  status?: RunStatus;
  workflowId?: string;
  /** At most this many (default 100). */
  limit?: number;
}

const DB_NAME = "vektor-device-runs";
const STORE = "runs";
const BY_CREATED = "createdAt";
/** Runs kept per browser; the oldest go first when a new run would pass it. */
export const MAX_DEVICE_RUNS = 200;

let opened: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id" });
      store.createIndex(BY_CREATED, "createdAt");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  // A failed open (private mode, storage off) is retried on the next call rather than cached.
  opened.catch(() => (opened = null));
  return opened;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** This device's runs, newest first, filtered by status and workflow. */
export async function listDeviceRuns(filter: DeviceRunFilter = {}): Promise<DeviceRun[]> {
  const db = await database();
  const all = await done(db.transaction(STORE).objectStore(STORE).index(BY_CREATED).getAll() as IDBRequest<DeviceRun[]>);
  return all
    .reverse()
    .filter((r) => (!filter.status || r.status === filter.status) && (!filter.workflowId || r.workflowId === filter.workflowId))
    .slice(0, filter.limit ?? 100);
}

/** One run of this device, or null when this browser does not have it. */
export async function getDeviceRun(id: string): Promise<DeviceRun | null> {
  const db = await database();
  return (await done(db.transaction(STORE).objectStore(STORE).get(id) as IDBRequest<DeviceRun | undefined>)) ?? null;
}

/** Writes (or rewrites) a run; the runner calls it as the run moves on. Keeps at most MAX_DEVICE_RUNS. */
export async function saveDeviceRun(run: DeviceRun): Promise<void> {
  const db = await database();
  const tx = db.transaction(STORE, "readwrite");
  const store = tx.objectStore(STORE);
  store.put(structuredClone(run));
  const keys = await done(store.index(BY_CREATED).getAllKeys());
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_DEVICE_RUNS))) store.delete(key);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Forgets one run of this device. */
export async function deleteDeviceRun(id: string): Promise<void> {
  const db = await database();
  await done(db.transaction(STORE, "readwrite").objectStore(STORE).delete(id));
}
