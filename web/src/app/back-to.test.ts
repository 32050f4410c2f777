import { describe, expect, test } from "vitest";
import { signInSearch } from "./back-to";

describe("signInSearch", () => {
  test("keeps a path of this app, with its search and hash", () => {
    expect(signInSearch({ redirect: "/files" })).toEqual({ redirect: "/files" });
    expect(signInSearch({ redirect: "/workflows/wf_1?tab=runs#top" })).toEqual({ redirect: "/workflows/wf_1?tab=runs#top" });
  });

  test("drops an address that would leave the app", () => {
    for (const redirect of ["//evil.example/x", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "files"])
      expect(signInSearch({ redirect })).toEqual({});
  });

  test("drops a missing or non-text redirect", () => {
    expect(signInSearch({})).toEqual({});
    expect(signInSearch({ redirect: 42 })).toEqual({});
    expect(signInSearch({ redirect: ["/files"] })).toEqual({});
  });
});
