/** The tool catalog (public). Running a tool and the caller's jobs are modules/tool-runs. */
import { ToolDetail, ToolIndexEntry } from "@vektor/shared/schemas/job";
import { listManifests } from "@vektor/wasm-tools";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseSlugs } from "../../http/query";
import { detailOf, toolIndex } from "../../tools/catalog";

/** `maxInputBytes`: TOOL_MAX_INPUT_MB, within which each tool's own limit is shown. */
export function toolsModule(maxInputBytes: number) {
  const { doc } = routeDocs();
  return new Elysia()
    .get(
      "/api/config/tools-index",
      () => ok(toolIndex()),
      doc({ summary: "Lightweight index of every tool", tags: ["Tools"], auth: "public", data: Type.Array(ToolIndexEntry) }),
    )
    .get(
      "/api/tools/lookup",
      ({ query }) => {
        const wanted = parseSlugs(query.slugs);
        return ok(listManifests().filter((m) => !wanted || wanted.includes(m.slug)).map((m) => detailOf(m, maxInputBytes)));
      },
      {
        query: Type.Object({ slugs: Type.Optional(Type.String({ maxLength: 2000, description: "Comma-separated tool slugs (`<family>.<operation>`, e.g. pdf.compress,bim.ifc-to-glb), as many as fit in 2000 characters; unknown slugs are left out; absent: every tool; a malformed value is 400 VALIDATION_ERROR" })) }),
        ...doc({ summary: "Tools by slug, with their params schema", tags: ["Tools"], auth: "public", data: Type.Array(ToolDetail) }),
      },
    );
}
