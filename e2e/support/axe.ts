/** axe-core in the page: the WCAG 2 A/AA violations the specs refuse (serious and critical). */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical WCAG 2 A/AA violations on the page as it is now (colour contrast included). */
export async function seriousViolations(p: Page): Promise<Violation[]> {
  if (!(await p.evaluate(() => "axe" in window))) await p.evaluate(AXE_SOURCE); // not addScriptTag: an inline <script> is refused by the app's CSP
  const violations = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
