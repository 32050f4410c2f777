/**
 * The user's CLI settings: the server and its credentials, in one JSON file readable by the user
 * only (0600, folder 0700). Path: VEKTOR_CONFIG, else $XDG_CONFIG_HOME/vektor/config.json,
 * else ~/.config/vektor/config.json.
 */
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface Settings {
  baseUrl?: string;
  /** An API token (`vektor login --token`). */
  token?: string;
  /** A session cookie (`vektor login` with e-mail and password). */
  cookie?: string;
  email?: string;
}

export const DEFAULT_URL = "http://127.0.0.1:8080";

export function settingsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VEKTOR_CONFIG) return env.VEKTOR_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "vektor", "config.json");
}

/** Where interrupted uploads keep their state, beside the settings. */
export const uploadStateDir = () => join(dirname(settingsPath()), "uploads");

export async function loadSettings(): Promise<Settings> {
  try {
    return JSON.parse(await readFile(settingsPath(), "utf8")) as Settings;
  } catch {
    return {};
  }
}

export async function saveSettings(s: Settings): Promise<string> {
  const path = settingsPath();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(s, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600); // an older file keeps its mode on write
  return path;
}

export async function clearSettings(): Promise<void> {
  await rm(settingsPath(), { force: true });
}
