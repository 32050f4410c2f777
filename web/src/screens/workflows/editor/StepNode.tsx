/**
 * How a step looks on the canvas: its category's colour, title, params in a line, and its
 * problems. Memoised, and `nodeTypes` is a module constant, so a drag re-renders only the node
 * that moves (300-node graphs stay smooth).
 */
import { Handle, Position, type Node, type NodeProps, type NodeTypes } from "@xyflow/react";
import { memo } from "react";

export interface StepData extends Record<string, unknown> {
  title: string;
  category: string;
  summary: string;
  problems: string[];
}

export type StepFlowNode = Node<StepData, "step">;

export const CATEGORY_LABEL: Record<string, string> = { trigger: "Trigger", source: "Source", op: "Operation", logic: "Logic", sink: "Output" };

const StepNode = memo(function StepNode({ data }: NodeProps<StepFlowNode>) {
  const n = data.problems.length;
  return (
    <div className={`step-node step-${data.category}${n ? " step-has-problem" : ""}`}>
      <Handle type="target" position={Position.Left} />
      <div className="step-kind">{CATEGORY_LABEL[data.category] ?? data.category}</div>
      <div className="step-title">{data.title}</div>
      {data.summary ? <div className="step-summary">{data.summary}</div> : null}
      {n ? (
        <div className="step-problem" title={data.problems.join("\n")}>
          {n === 1 ? data.problems[0] : `${n} problems: ${data.problems[0]}`}
        </div>
      ) : null}
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

/** Outside any component: React Flow re-mounts every node when this object changes. */
export const NODE_TYPES: NodeTypes = { step: StepNode };
