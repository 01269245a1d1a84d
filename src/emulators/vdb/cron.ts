/**
 * Backup schedule expressions as the service accepts them
 * (docs/api/vdb.md, "Schedule expressions"): a cron expression of 5 fields (minute hour
 * day-of-month month day-of-week), 6 (seconds first) or 7 (plus year); one of the descriptors
 * @yearly @annually @monthly @weekly @daily @midnight @hourly @reboot; or `@every <Go duration>`.
 * Returns a reason when the expression is not acceptable.
 */
import { GoDurationError, parseGoDuration } from '../../../packages/framework/src/wire/go-duration.js';
import { ownEntry } from '../../../packages/framework/src/wire/own-entry.js';

const DESCRIPTORS = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
  '@reboot',
]);

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldKind {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  /** Names accepted instead of numbers, mapped to min + index. */
  readonly names?: readonly string[];
  /** `?` (no specific value) is allowed in the day fields only. */
  readonly question?: boolean;
}

const SECOND: FieldKind = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldKind = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldKind = { name: 'hour', min: 0, max: 23 };
const DAY_OF_MONTH: FieldKind = { name: 'day of month', min: 1, max: 31, question: true };
const MONTH: FieldKind = { name: 'month', min: 1, max: 12, names: MONTHS };
const DAY_OF_WEEK: FieldKind = { name: 'day of week', min: 0, max: 7, names: DAYS, question: true };
const YEAR: FieldKind = { name: 'year', min: 1970, max: 2099 };

const LAYOUTS: Readonly<Record<number, readonly FieldKind[]>> = {
  5: [MINUTE, HOUR, DAY_OF_MONTH, MONTH, DAY_OF_WEEK],
  6: [SECOND, MINUTE, HOUR, DAY_OF_MONTH, MONTH, DAY_OF_WEEK],
  7: [SECOND, MINUTE, HOUR, DAY_OF_MONTH, MONTH, DAY_OF_WEEK, YEAR],
};

export function cronProblem(expression: string): string | undefined {
  const text = expression.trim();
  if (text === '') return 'the schedule is empty';
  if (text.startsWith('@')) {
    if (DESCRIPTORS.has(text)) return undefined;
    const every = /^@every\s+(\S+)$/.exec(text);
    if (!every)
      return (
        `unknown descriptor ${JSON.stringify(text)} (use @yearly, @annually, @monthly, @weekly, @daily, ` +
        `@midnight, @hourly, @reboot or @every <duration>)`
      );
    try {
      if (parseGoDuration(every[1]!) <= 0n) return '@every needs a positive duration';
    } catch (error) {
      if (error instanceof GoDurationError) return `@every: ${error.message}`;
      throw error;
    }
    return undefined;
  }
  const fields = text.split(/\s+/);
  const layout = ownEntry(LAYOUTS, fields.length);
  if (!layout) return `a cron expression has 5 to 7 fields, got ${fields.length}`;
  for (let i = 0; i < fields.length; i++) {
    const problem = fieldProblem(fields[i]!, layout[i]!);
    if (problem) return `${layout[i]!.name} field ${JSON.stringify(fields[i])}: ${problem}`;
  }
  return undefined;
}

function fieldProblem(field: string, kind: FieldKind): string | undefined {
  if (field === '?' && kind.question) return undefined;
  for (const part of field.split(',')) {
    if (part === '') return 'empty list element';
    const [base = '', step, extra] = part.split('/');
    if (extra !== undefined) return 'more than one step';
    if (step !== undefined && !(/^\d+$/.test(step) && Number(step) > 0))
      return `step ${JSON.stringify(step)} must be a positive number`;
    if (base === '*') continue;
    const bounds = base.split('-');
    if (bounds.length > 2) return `bad range ${JSON.stringify(base)}`;
    const values: number[] = [];
    for (const bound of bounds) {
      const value = fieldValue(bound, kind);
      if (value === undefined)
        return (
          `${JSON.stringify(bound)} is not a valid ${kind.name} ` +
          `(${kind.min}-${kind.max}${kind.names ? ` or ${kind.names[0]}-${kind.names[kind.names.length - 1]}` : ''})`
        );
      values.push(value);
    }
    if (values.length === 2 && values[0]! > values[1]!) return `range ${JSON.stringify(base)} runs backwards`;
  }
  return undefined;
}

function fieldValue(text: string, kind: FieldKind): number | undefined {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    return value >= kind.min && value <= kind.max ? value : undefined;
  }
  const index = kind.names?.indexOf(text.toUpperCase()) ?? -1;
  return index >= 0 ? (kind.names === MONTHS ? index + 1 : index) : undefined;
}
