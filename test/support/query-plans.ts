// PostgreSQL's EXPLAIN (FORMAT JSON) plans, read by the tests that hold a statement to the indexes it must use.

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, the root first, depth first. */
export function* planNodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* planNodes(child);
}
