/**
 * What a person reads about an admin setting: its kind of value, its range with the unit, and
 * why a value is refused, as one sentence. The server refuses a value with it (PUT
 * /api/admin/config/{group}) and the web app checks a form with it before sending, so both say
 * the same thing.
 */
import type { SettingInfo } from "./schemas/config";

const number = (n: number) => n.toLocaleString("en-US");

/** "Most files in one batch, free plan (batch.max_files_free)". */
export const settingLabel = (s: Pick<SettingInfo, "key" | "description">) => `${s.description} (${s.key})`;

/** The accepted values in words: "a whole number from 1 to 10,000 files", "on or off". */
export function settingRange(s: SettingInfo): string {
  const unit = s.unit ? ` ${s.unit}` : "";
  switch (s.kind) {
    case "switch":
      return "on or off";
    case "number":
      return `a whole number from ${number(s.minimum ?? 0)} to ${number(s.maximum ?? Number.MAX_SAFE_INTEGER)}${unit}`;
    case "text":
      return s.maxLength === null ? "text" : `text of at most ${number(s.maxLength)} characters`;
    case "list":
      return `a list of at most ${number(s.maxItems ?? 0)} entries, each 1 to ${number(s.maxLength ?? 0)} characters`;
  }
}

const fits = (n: number, min: number | null, max: number | null) => (min === null || n >= min) && (max === null || n <= max);

function accepts(s: SettingInfo, value: unknown): boolean {
  switch (s.kind) {
    case "switch":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isInteger(value) && fits(value, s.minimum, s.maximum);
    case "text":
      return typeof value === "string" && fits(value.length, null, s.maxLength);
    case "list":
      return Array.isArray(value) && fits(value.length, null, s.maxItems) && value.every((v) => typeof v === "string" && fits(v.length, 1, s.maxLength));
  }
}

/** Why `value` is refused for the setting, as a sentence; null when it is accepted. */
export function settingProblem(s: SettingInfo, value: unknown): string | null {
  return accepts(s, value) ? null : `${settingLabel(s)} must be ${settingRange(s)}.`;
}
