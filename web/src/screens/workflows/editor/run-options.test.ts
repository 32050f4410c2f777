import { describe, expect, it } from "vitest";
import { draftOf, isDraftChanged, readRunOptions, runOptionsJson, templateOptionsJson } from "./run-options";

describe("run options (notifySecret is write-only)", () => {
  it("a server that seals the secret: it says notifySecretSet, the secret is never sent back unless changed", () => {
    const o = readRunOptions({ paramsJson: JSON.stringify({ notifyUrl: "https://x.test/h" }), notifySecretSet: true });
    expect(o).toMatchObject({ notifyUrl: "https://x.test/h", secretSet: true, legacySecret: null });
    const d = draftOf(o);
    expect(isDraftChanged(o, d)).toBe(false);
    expect(runOptionsJson(o, d)).toBeUndefined();
    expect(JSON.parse(runOptionsJson(o, { ...d, notifyUrl: "https://y.test/h" })!)).toEqual({ notifyUrl: "https://y.test/h" });
    expect(JSON.parse(runOptionsJson(o, { ...d, secret: "new-secret-1" })!)).toEqual({ notifyUrl: "https://x.test/h", notifySecret: "new-secret-1" });
    expect(JSON.parse(runOptionsJson(o, { ...d, removeSecret: true })!)).toEqual({ notifyUrl: "https://x.test/h", notifySecret: null });
  });

  it("an older server that answered the secret inside paramsJson: never shown, kept on save, dropped to remove it", () => {
    const o = readRunOptions({ paramsJson: JSON.stringify({ notifyUrl: "https://x.test/h", notifySecret: "old-secret" }) });
    expect(o).toMatchObject({ notifyUrl: "https://x.test/h", secretSet: true, legacySecret: "old-secret" });
    expect(o.base).toEqual({ notifyUrl: "https://x.test/h" });
    const d = draftOf(o);
    expect(JSON.parse(runOptionsJson(o, { ...d, notifyUrl: "https://y.test/h" })!)).toEqual({ notifyUrl: "https://y.test/h", notifySecret: "old-secret" });
    expect(JSON.parse(runOptionsJson(o, { ...d, removeSecret: true })!)).toEqual({ notifyUrl: "https://x.test/h" });
  });

  it("no options, options that are not an object, other keys kept", () => {
    expect(readRunOptions({ paramsJson: null })).toMatchObject({ base: {}, notifyUrl: "", secretSet: false });
    expect(readRunOptions({ paramsJson: "[1]" })).toMatchObject({ base: {}, secretSet: false });
    const o = readRunOptions({ paramsJson: JSON.stringify({ other: 1, notifyUrl: "https://x.test/h" }), notifySecretSet: false });
    expect(JSON.parse(runOptionsJson(o, { ...draftOf(o), notifyUrl: "" })!)).toEqual({ other: 1 });
  });

  it("a template keeps the options but never a secret", () => {
    const o = readRunOptions({ paramsJson: JSON.stringify({ notifyUrl: "https://x.test/h", notifySecret: "old-secret" }) });
    expect(JSON.parse(templateOptionsJson(o, { ...draftOf(o), secret: "typed-secret" })!)).toEqual({ notifyUrl: "https://x.test/h" });
    expect(templateOptionsJson(readRunOptions({ paramsJson: null }), { notifyUrl: "", secret: "", removeSecret: false })).toBeUndefined();
  });
});
