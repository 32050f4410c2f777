/**
 * The order of a workflow graph's nodes: a topological order (what runs before what) and the
 * groups of nodes that loop. Pure: the server's validation and engine and the web editor share it.
 */

/** A dependency between two nodes: `target` runs after `source` and gets its outputs. */
export interface Link {
  source: string;
  target: string;
}

/**
 * The ids in an order where every link's source comes before its target (Kahn's algorithm;
 * ties keep the order of `ids`), or null when the links form a cycle.
 */
export function topoOrder(ids: readonly string[], links: readonly Link[]): string[] | null {
  const indegree = new Map(ids.map((id) => [id, 0]));
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const { source, target } of links) {
    next.get(source)!.push(target);
    indegree.set(target, indegree.get(target)! + 1);
  }
  const position = new Map(ids.map((id, i) => [id, i]));
  const ready = ids.filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  while (ready.length) {
    // Smallest original position first, so the order is stable and reads like the graph.
    ready.sort((a, b) => position.get(a)! - position.get(b)!);
    const id = ready.shift()!;
    order.push(id);
    for (const t of next.get(id)!) {
      indegree.set(t, indegree.get(t)! - 1);
      if (indegree.get(t) === 0) ready.push(t);
    }
  }
  return order.length === ids.length ? order : null;
}

/** The groups of ids that reach each other through `links` (Tarjan's strongly connected components of 2+ nodes). */
export function cycles(ids: readonly string[], links: readonly Link[]): string[][] {
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const { source, target } of links) next.get(source)!.push(target);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (id: string) => {
    index.set(id, index.size);
    low.set(id, index.get(id)!);
    stack.push(id);
    onStack.add(id);
    for (const t of next.get(id)!) {
      if (!index.has(t)) {
        visit(t);
        low.set(id, Math.min(low.get(id)!, low.get(t)!));
      } else if (onStack.has(t)) low.set(id, Math.min(low.get(id)!, index.get(t)!));
    }
    if (low.get(id) !== index.get(id)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== id);
    if (group.length > 1) groups.push(group);
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  const position = new Map(ids.map((id, i) => [id, i]));
  return groups.map((g) => g.sort((a, b) => position.get(a)! - position.get(b)!));
}

/** Whether `to` can be reached from `from` along `links` (a path of one or more links). */
export function leadsTo(links: readonly Link[], from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const { source, target } of links) {
    const list = next.get(source);
    if (list) list.push(target);
    else next.set(source, [target]);
  }
  const seen = new Set<string>();
  const stack = [...(next.get(from) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(next.get(id) ?? []));
  }
  return false;
}
