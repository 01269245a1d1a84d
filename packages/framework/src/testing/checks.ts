/**
 * Checks of a step's plan and of the state after it, as objects (terraform-plugin-testing's plancheck,
 * statecheck and knownvalue): what a resource's plan makes, which of its values are known only after
 * apply, which are sensitive, and what a value is, at a path into the resource's values
 * (`name`, `rule.0.severity`, `tags.env`). Each check says what it found when it does not hold.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Plan, StateResource } from './cli-workspace.js';

/** What a value must be: `test` judges it, `expected` says it in a failure. */
export interface ValueCheck {
  readonly expected: string;
  test(value: unknown): boolean;
}

export const knownValue = {
  /** Exactly this value (objects and lists compared deeply). */
  exact: (value: unknown): ValueCheck => ({
    expected: JSON.stringify(value),
    test: (v) => isDeepStrictEqual(v, value),
  }),
  /** A string this expression matches. */
  matches: (pattern: RegExp): ValueCheck => ({
    expected: `a string matching ${pattern}`,
    test: (v) => typeof v === 'string' && pattern.test(v),
  }),
  /** Anything but null. */
  notNull: (): ValueCheck => ({ expected: 'not null', test: (v) => v !== null && v !== undefined }),
  /** Null (or absent). */
  null: (): ValueCheck => ({ expected: 'null', test: (v) => v === null || v === undefined }),
  /** A list or set of this many elements, or a map or object of this many keys. */
  size: (count: number): ValueCheck => ({
    expected: `${count} element(s)`,
    test: (v) =>
      Array.isArray(v) ? v.length === count : v !== null && typeof v === 'object' && Object.keys(v).length === count,
  }),
};

/** A check of a step's plan, before it is applied: a problem, or undefined when it holds. */
export interface PlanCheck {
  check(plan: Plan): string | undefined;
}

/** A check of the state after a step: a problem, or undefined when it holds. */
export interface StateCheck {
  check(state: readonly StateResource[]): string | undefined;
}

export const planCheck = {
  /** The plan makes these actions of the resource, joined by `,`: `create`, `update`, `delete,create`, `no-op`. */
  resourceAction: (address: string, actions: string): PlanCheck => ({
    check(plan) {
      const planned = changeOf(plan, address)?.change?.actions?.join(',') ?? 'nothing';
      return planned === actions ? undefined : `${address}: the plan makes ${planned}, expected ${actions}`;
    },
  }),
  /** The value is known only after apply. */
  unknownValue: (address: string, path: string): PlanCheck => ({
    check(plan) {
      const change = changeOf(plan, address);
      if (!change) return `${address}: not in the plan`;
      return at(change.change?.after_unknown, path) === true
        ? undefined
        : `${address}.${path}: known at plan (${show(at(change.change?.after, path))}), expected unknown`;
    },
  }),
  /** The value is known at plan, and is what `value` says. */
  knownValue: (address: string, path: string, value: ValueCheck): PlanCheck => ({
    check(plan) {
      const change = changeOf(plan, address);
      if (!change) return `${address}: not in the plan`;
      if (at(change.change?.after_unknown, path) === true) return `${address}.${path}: unknown at plan`;
      const planned = at(change.change?.after, path);
      return value.test(planned)
        ? undefined
        : `${address}.${path}: planned ${show(planned)}, expected ${value.expected}`;
    },
  }),
  /** The planned value is sensitive (Terraform hides it). */
  sensitiveValue: (address: string, path: string): PlanCheck => ({
    check(plan) {
      const change = changeOf(plan, address);
      if (!change) return `${address}: not in the plan`;
      return at(change.change?.after_sensitive, path) === true ? undefined : `${address}.${path}: not sensitive`;
    },
  }),
  /** The plan changes nothing. */
  emptyPlan: (): PlanCheck => ({
    check: (plan) =>
      plan.changes.length === 0
        ? undefined
        : `the plan is not empty: ${plan.changes.map((c) => `${c.address} ${c.actions.join(',')}`).join('; ')}`,
  }),
};

export const stateCheck = {
  /** The state holds the resource, with what `value` says at `path`. */
  knownValue: (address: string, path: string, value: ValueCheck): StateCheck => ({
    check(state) {
      const found = state.find((r) => r.address === address);
      if (!found) return `${address}: not in the state`;
      const held = at(found.values, path);
      return value.test(held) ? undefined : `${address}.${path}: ${show(held)}, expected ${value.expected}`;
    },
  }),
  /** The state holds the value as sensitive. */
  sensitiveValue: (address: string, path: string): StateCheck => ({
    check(state) {
      const found = state.find((r) => r.address === address);
      if (!found) return `${address}: not in the state`;
      return at(found.sensitiveValues, path) === true ? undefined : `${address}.${path}: not sensitive in the state`;
    },
  }),
};

function changeOf(plan: Plan, address: string): any {
  return ((plan.json?.resource_changes ?? []) as any[]).find((c) => c.address === address);
}

/** The value at a dotted path (`rule.0.severity`); a whole sensitive or unknown object marks all within it. */
function at(value: unknown, path: string): unknown {
  let here: unknown = value;
  for (const step of path.split('.')) {
    if (here === true) return true;
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[step];
  }
  return here;
}

const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));
