import type { SettingInfo } from "@vektor/shared/schemas/config";
import { describe, expect, test } from "vitest";
import { readSetting, settingHint, showSetting } from "./admin-settings";

const files: SettingInfo = { key: "batch.max_files_free", group: "batch_configs", description: "Most files in one batch, free plan", unit: "files", kind: "number", minimum: 1, maximum: 10_000, maxLength: null, maxItems: null, default: 20, secret: false };
const hosts: SettingInfo = { key: "net.allow_hosts", group: "platform_configs", description: "Hosts the guard lets through", unit: null, kind: "list", minimum: null, maximum: null, maxLength: 260, maxItems: 100, default: [], secret: false };
const toggle: SettingInfo = { key: "batch.enabled", group: "batch_configs", description: "Batches can be created", unit: null, kind: "switch", minimum: null, maximum: null, maxLength: null, maxItems: null, default: true, secret: false };

describe("an admin setting's field", () => {
  test("a number in range is read; anything else is refused in one sentence with the range and unit", () => {
    expect(readSetting(files, "25")).toEqual({ ok: true, value: 25 });
    const sentence = "Most files in one batch, free plan (batch.max_files_free) must be a whole number from 1 to 10,000 files.";
    for (const bad of ["0", "10001", "2.5", "", "many"]) expect(readSetting(files, bad)).toEqual({ ok: false, problem: sentence });
  });

  test("a list is one entry a line (blank lines dropped); a switch is on or off", () => {
    expect(readSetting(hosts, "a.example\n\n b.example \n")).toEqual({ ok: true, value: ["a.example", "b.example"] });
    expect(readSetting(hosts, "x".repeat(261))).toEqual({ ok: false, problem: "Hosts the guard lets through (net.allow_hosts) must be a list of at most 100 entries, each 1 to 260 characters." });
    expect(showSetting(hosts, ["a.example", "b.example"])).toBe("a.example\nb.example");
    expect(readSetting(toggle, "false")).toEqual({ ok: true, value: false });
    expect(readSetting(toggle, "maybe")).toEqual({ ok: false, problem: "Batches can be created (batch.enabled) must be on or off." });
  });

  test("the hint gives the range with its unit and the default", () => {
    expect(settingHint(files)).toBe("A whole number from 1 to 10,000 files. Default: 20 files.");
    expect(settingHint(toggle)).toBe("On or off. Default: on.");
    expect(settingHint(hosts)).toBe("A list of at most 100 entries, each 1 to 260 characters, one a line. Default: none.");
  });
});
