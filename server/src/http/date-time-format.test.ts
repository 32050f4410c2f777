import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { expect, test } from "bun:test";
import { isDateTime } from "./date-time-format";

test("RFC 3339 date-times pass, with or without fractions and with offsets", () => {
  for (const v of [new Date().toISOString(), "2026-11-24T06:14:23Z", "2026-11-24T06:14:23.237+00:00", "2024-02-29T23:59:60-05:30", "2026-01-31t00:00:00z"]) expect(isDateTime(v)).toBe(true);
});

test("other strings and impossible dates fail", () => {
  for (const v of ["", "2026-11-24", "2026-11-24T06:14Z", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-24T24:00:00Z", "Tue Nov 24 2026", "2026-11-24T06:14:23", " 2026-11-24T06:14:23Z"]) expect(isDateTime(v)).toBe(false);
});

test("it is the check schemas use, after Elysia registered its own", () => {
  expect(new Elysia()).toBeDefined(); // Elysia's formats are registered on import
  expect(FormatRegistry.Get("date-time")).toBe(isDateTime);
  const schema = Type.String({ format: "date-time" });
  expect(Value.Check(schema, "2026-11-24T06:14:23.237Z")).toBe(true);
  expect(Value.Check(schema, "2026-02-30T00:00:00Z")).toBe(false);
});
