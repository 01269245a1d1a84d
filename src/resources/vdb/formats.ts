/**
 * Value formats of the vdb platform as the provider shows them (docs/api/vdb.md, "Value formats"):
 * Go duration strings, RFC 3339 timestamps at second precision in UTC, cron schedules, UUIDs and
 * CIDRs, each with a parser, a formatter where state needs one, and a plan-time validator.
 */
import * as forms from '../../schema/forms.js';
import {
  formatGoDuration,
  GoDurationError,
  parseGoDuration as parseGoDurationStrict,
  type Validator,
} from '@keel/provider-framework';

// ---------------------------------------------------------------------------------------------------
// Go durations (the client's exact parser and formatter)

/** Nanoseconds of a Go duration string, or undefined when it does not parse. */
export function parseGoDuration(text: string): bigint | undefined {
  try {
    return parseGoDurationStrict(text);
  } catch (err) {
    if (err instanceof GoDurationError) return undefined;
    throw err;
  }
}

export { formatGoDuration };

/** Two duration strings that mean the same span (`72h` and `72h0m0s`). */
export function sameGoDuration(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseGoDuration(a);
  return x !== undefined && x === parseGoDuration(b);
}

const NS_PER_HOUR = 3_600_000_000_000n;

/**
 * A duration as people write it: Go's own form without its trailing zero units (`72h`, `1h30m` for
 * the platform's `72h0m0s`, `1h30m0s`); undefined when it does not parse.
 */
export function writtenGoDuration(text: string): string | undefined {
  const ns = parseGoDuration(text);
  return ns === undefined
    ? undefined
    : formatGoDuration(ns)
        .replace(/([hm])0s$/, '$1')
        .replace(/h0m$/, 'h');
}

/** A Go duration within [min, max] hours (the platform's retention bounds). */
export function goDurationBetweenHours(minHours: number, maxHours: number): Validator<string> {
  return {
    description: `a Go duration (for example \`${minHours * 3}h\`) from \`${minHours}h\` to \`${maxHours}h\``,
    // The bounds, the second in another spelling of a whole number of hours.
    samples: [`${minHours}h`, `${maxHours * 60}m`],
    written: writtenGoDuration,
    check(v) {
      const ns = parseGoDuration(v);
      if (ns === undefined)
        return `must be a Go duration such as "72h" or "1h30m" (units ns, us, ms, s, m, h), got ${JSON.stringify(v)}`;
      if (ns < BigInt(minHours) * NS_PER_HOUR || ns > BigInt(maxHours) * NS_PER_HOUR) {
        return `must be between ${minHours}h and ${maxHours}h, got ${JSON.stringify(v)} (${formatGoDuration(ns)})`;
      }
      return undefined;
    },
  };
}

/** A Go duration from `min` to `max` (both Go durations, e.g. `1s` and `24h`), for the provider's own waits. */
export function goDurationBetween(min: string, max: string): Validator<string> {
  const low = parseGoDuration(min)!;
  const high = parseGoDuration(max)!;
  return {
    description: `a Go duration (for example \`30m\` or \`1h30m\`) from \`${min}\` to \`${max}\``,
    samples: [min, max, '30m'],
    written: writtenGoDuration,
    check(v) {
      const ns = parseGoDuration(v);
      if (ns === undefined)
        return `must be a Go duration such as "30m" or "1h30m" (units ns, us, ms, s, m, h), got ${JSON.stringify(v)}`;
      if (ns < low || ns > high)
        return `must be between ${min} and ${max}, got ${JSON.stringify(v)} (${formatGoDuration(ns)})`;
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Timestamps

/** RFC 3339 at second precision in UTC with a trailing `Z`, as the platform's timestamps are stored. */
export function formatTimestamp(t: Date | string | null | undefined): string {
  if (t === null || t === undefined || t === '') return '';
  const d = typeof t === 'string' ? new Date(t) : t;
  if (Number.isNaN(d.getTime())) return '';
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The instant an RFC 3339 timestamp names (whole seconds since the epoch), or undefined when it is not one. */
export function parseTimestamp(text: string): number | undefined {
  return forms.parseRfc3339(text)?.seconds;
}

/** Two timestamps that name the same second (an offset or a fraction is only another spelling: state keeps seconds). */
export function sameInstant(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseTimestamp(a);
  return x !== undefined && x === parseTimestamp(b);
}

/** The forms both providers share (src/schema/forms.ts): one rule for every argument of each. */
export const isTimestamp = forms.timestamp();
/** An expiry: a timestamp in the future. */
export const futureTimestamp = forms.timestamp({ future: true });
export const { uuid, ipv4Cidr } = forms;
/**
 * The ids of the platform's cloud providers and regions
 * (docs/api/vdb.md, "Cloud providers and regions"), which it lists and matches in lower case only:
 * `AWS` or `EU-CENTRAL-1` names nothing.
 */
/** The cloud provider id of a cluster in a hybrid cloud environment of the account. */
export const HYBRID = 'hybrid';

export const cloudProviderId = forms.lowerCaseId('cloud provider id', ['aws', 'gcp', 'azure', HYBRID]);
export const cloudRegionId = forms.lowerCaseId('region id', ['eu-central-1', 'us-east4', 'germanywestcentral']);
/** An account id (a UUID), which the platform writes and matches in lower case like its other ids. */
export const accountId = forms.lowerCaseId('account id', ['3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f']);

/**
 * A string whose length (in characters) lies in [min, max] and that matches `re`, described as
 * `what`; `samples` are strings that do (a pattern cannot name them itself).
 */
export function text(
  min: number,
  max: number,
  re: RegExp | null,
  what: string,
  samples: readonly string[] = [],
): Validator<string> {
  return {
    description: `${what}, ${min === max ? `${min}` : `${min} to ${max}`} characters`,
    samples,
    check(v) {
      const n = [...v].length;
      if (n < min || n > max) return `must be ${min === max ? min : `${min} to ${max}`} characters long, got ${n}`;
      if (re && !re.test(v)) return `must be ${what}, got ${JSON.stringify(v)}`;
      return undefined;
    },
  };
}

/**
 * The largest values of the API's integer field types (docs/api/vdb.md, "Field rules"): the
 * platform's documented upper bounds.
 */
export const UINT32_MAX = 2 ** 32 - 1;
export const INT32_MAX = 2 ** 31 - 1;

// ---------------------------------------------------------------------------------------------------
// Cron schedules: what the platform accepts for a backup schedule
// (docs/api/vdb.md, "Schedule expressions"), the same rule the emulator holds;
// test/resources/vdb/schedule-expressions.test.ts holds both to the examples of that page.

const MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly', '@reboot'];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** `?` (no specific value) is allowed in the two day fields. */
  question?: boolean;
}

const SECOND: CronField = { name: 'second', min: 0, max: 59 };
const MINUTE: CronField = { name: 'minute', min: 0, max: 59 };
const HOUR: CronField = { name: 'hour', min: 0, max: 23 };
const DOM: CronField = { name: 'day of month', min: 1, max: 31, question: true };
const MONTH: CronField = { name: 'month', min: 1, max: 12, names: MONTHS };
const DOW: CronField = { name: 'day of week', min: 0, max: 7, names: DAYS, question: true };
const YEAR: CronField = { name: 'year', min: 1970, max: 2099 };

/** Why a cron expression is not one the platform accepts, or undefined when it is fine. */
export function cronProblem(expr: string): string | undefined {
  const s = expr.trim();
  if (s === '') return 'the schedule is empty';
  if (s.startsWith('@')) {
    if (MACROS.includes(s)) return undefined;
    const every = /^@every\s+(\S+)$/.exec(s);
    if (every) {
      const ns = parseGoDuration(every[1]!);
      return ns !== undefined && ns > 0n
        ? undefined
        : `"@every" needs a positive Go duration such as "@every 6h", got ${JSON.stringify(every[1])}`;
    }
    return `unknown macro ${JSON.stringify(s)}; use one of ${MACROS.join(', ')} or "@every <duration>"`;
  }
  const parts = s.split(/\s+/);
  const layout =
    parts.length === 5
      ? [MINUTE, HOUR, DOM, MONTH, DOW]
      : parts.length === 6
        ? [SECOND, MINUTE, HOUR, DOM, MONTH, DOW]
        : parts.length === 7
          ? [SECOND, MINUTE, HOUR, DOM, MONTH, DOW, YEAR]
          : null;
  if (!layout)
    return (
      `must have 5 fields (minute hour day-of-month month day-of-week), 6 or 7, or be a macro such as "@daily"; ` +
      `got ${parts.length} field${parts.length === 1 ? '' : 's'}`
    );
  for (const [i, field] of layout.entries()) {
    const problem = cronFieldProblem(parts[i]!, field);
    if (problem) return `${field.name} field ${JSON.stringify(parts[i])}: ${problem}`;
  }
  return undefined;
}

function cronFieldProblem(text: string, f: CronField): string | undefined {
  if (f.question && text === '?') return undefined;
  for (const item of text.split(',')) {
    if (item === '') return 'empty list element';
    const [range = '', step, ...more] = item.split('/');
    if (more.length > 0) return `${JSON.stringify(item)} has more than one "/"`;
    if (step !== undefined && !/^\d+$/.test(step)) return `step ${JSON.stringify(step)} is not a whole number`;
    if (step !== undefined && Number(step) === 0) return 'a step of 0 is not allowed';
    if (range === '*') continue;
    const bounds = range.split('-');
    if (bounds.length > 2) return `${JSON.stringify(range)} is not a value or a range`;
    const values = bounds.map((b) => fieldValue(b, f));
    if (values.some((v) => v === undefined))
      return (
        `${JSON.stringify(range)} is ` +
        `outside ${f.min}-${f.max}${f.names ? ` (or ${f.names[0]}-${f.names[f.names.length - 1]})` : ''}`
      );
    if (values.length === 2 && values[0]! > values[1]!) return `range ${JSON.stringify(range)} runs backwards`;
  }
  return undefined;
}

function fieldValue(text: string, f: CronField): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= f.min && n <= f.max ? n : undefined;
  }
  const i = f.names?.indexOf(text.toUpperCase()) ?? -1;
  if (i < 0) return undefined;
  return f.names === MONTHS ? i + 1 : i;
}

export const cronExpression: Validator<string> = {
  description: 'a cron expression (5 to 7 fields), a macro such as `@daily`, or `@every <Go duration>`',
  samples: ['0 3 * * *', '30 2 * * 1-5', '@daily', '@every 6h'],
  check: (v) => {
    const problem = cronProblem(v);
    return problem ? `must be a valid cron expression (${problem})` : undefined;
  },
};
