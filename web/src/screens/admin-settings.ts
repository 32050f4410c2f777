/**
 * An admin setting's form field: what its text means as a value of the setting's kind, and why
 * it is refused, in the same sentence the server would answer (shared/src/settings.ts).
 */
import type { SettingInfo } from "@vektor/shared/schemas/config";
import { settingLabel, settingProblem, settingRange } from "@vektor/shared/settings";

export type Read = { ok: true; value: unknown } | { ok: false; problem: string };

/** The field's text as the setting's value: a number, on/off ("true"/"false"), text, or a list (one entry a line). */
export function readSetting(info: SettingInfo, text: string): Read {
  const value = parseAs(info.kind, text);
  const problem = value === undefined ? `${settingLabel(info)} must be ${settingRange(info)}.` : settingProblem(info, value);
  return problem ? { ok: false, problem } : { ok: true, value };
}

function parseAs(kind: SettingInfo["kind"], text: string): unknown {
  switch (kind) {
    case "number":
      return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case "switch":
      return text === "true" ? true : text === "false" ? false : undefined;
    case "text":
      return text;
    case "list":
      return text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
  }
}

/** A value as its field holds it (lists one entry a line). */
export function showSetting(info: SettingInfo | undefined, value: unknown): string {
  if (Array.isArray(value) && (!info || info.kind === "list")) return value.join("\n");
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The line under a field: its range and unit, and its default. */
export function settingHint(info: SettingInfo): string {
  const shown = info.kind === "switch" ? (info.default ? "on" : "off") : info.kind === "list" ? (Array.isArray(info.default) && info.default.length ? info.default.join(", ") : "none") : info.kind === "text" ? (info.default === "" ? "empty" : String(info.default)) : `${Number(info.default).toLocaleString("en-US")}${info.unit ? ` ${info.unit}` : ""}`;
  const range = settingRange(info);
  return `${range[0]!.toUpperCase()}${range.slice(1)}${info.kind === "list" ? ", one a line" : ""}. Default: ${info.secret && info.default === "" ? "not set" : shown}.`;
}
