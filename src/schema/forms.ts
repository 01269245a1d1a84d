/**
 * One validator per value form, used by every attribute of that form in both providers: timestamps,
 * UUIDs, URLs, e-mail addresses, CIDRs, PEM keys and names. Each is as strict as the platforms are
 * (calendar dates, offsets, case), says what it wants with an example, and names values it must
 * refuse (`counterexamples`), so that a test can break every attribute of the form and see it
 * refused at validation, at its path, before anything is sent.
 */
import type { Validator } from '@keel/provider-framework';

/** The forms the validators below check; an attribute's validators name theirs (`form`). */
export type ValueForm = 'timestamp' | 'uuid' | 'url' | 'email' | 'cidr' | 'pem' | 'name' | 'lower-case id';

/** A validator of a form: what it names, values it accepts and values it refuses. */
export interface FormValidator<V> extends Validator<V> {
  readonly form: ValueForm;
  readonly counterexamples: readonly V[];
}

// ---------------------------------------------------------------------------------------------------
// Timestamps

export { parseRfc3339, type Instant } from '../wire/rfc3339.js';
import { parseRfc3339 } from '../wire/rfc3339.js';

/** Two RFC 3339 texts that name the same instant (an offset or trailing zeros are only spelling). */
export function sameInstant(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [parseRfc3339(a), parseRfc3339(b)];
  return x !== undefined && y !== undefined && x.seconds === y.seconds && x.nanos === y.nanos;
}

const TIMESTAMP_EXAMPLE = '2030-01-31T12:00:00Z';

/**
 * An RFC 3339 date-time; with `future`, one after the moment it is judged (an expiry: the platforms
 * refuse one in the past). A stored value that has since passed is not judged again
 * (engine/plan/validate.ts), so a state never becomes invalid by the clock alone.
 */
export function timestamp(options: { future?: boolean } = {}): FormValidator<string> {
  return {
    form: 'timestamp',
    description: `an RFC 3339 timestamp${options.future ? ' in the future' : ''}, e.g. \`${TIMESTAMP_EXAMPLE}\``,
    samples: [TIMESTAMP_EXAMPLE, '2031-06-30T23:59:59+02:00', '2099-12-31T23:59:59.5-01:30'],
    counterexamples: [
      '2099-13-01T00:00:00Z',
      '2099-02-30T00:00:00Z',
      '2099-01-01T24:00:00Z',
      '2099-01-01T23:59:60Z',
      '2099-01-01T00:00:00+24:00',
      '2099-01-01T00:00:00+23:60',
      '2099-01-01 00:00:00',
      '2099-01-01',
      ...(options.future ? ['2001-01-01T00:00:00Z'] : []),
    ],
    check(v) {
      const at = parseRfc3339(v);
      if (at === undefined) {
        return (
          `must be an RFC 3339 timestamp with a real date, a time from 00:00:00 to 23:59:59 and an offset ` +
          `(\`Z\` or ±hh:mm), such as ${JSON.stringify(TIMESTAMP_EXAMPLE)}, got ${JSON.stringify(v)}`
        );
      }
      if (options.future && at.seconds * 1000 <= Date.now()) return `must be in the future, got ${JSON.stringify(v)}`;
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Identifiers and addresses

const UUID_EXAMPLE = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID in lower case, as the platform writes its ids (an upper-case one names no object). */
export const uuid: FormValidator<string> = {
  form: 'uuid',
  description: 'a UUID in lower case',
  samples: [UUID_EXAMPLE],
  counterexamples: [UUID_EXAMPLE.toUpperCase(), UUID_EXAMPLE.replace(/-/g, ''), `${UUID_EXAMPLE}0`, 'not-a-uuid'],
  check(v) {
    if (UUID.test(v)) return undefined;
    if (UUID.test(v.toLowerCase()))
      return `must be in lower case, as the platform writes ids: ${JSON.stringify(v.toLowerCase())}`;
    return `must be a UUID such as ${JSON.stringify(UUID_EXAMPLE)}, got ${JSON.stringify(v)}`;
  },
};

/**
 * An id the platform writes, lists and matches in lower case only (a cloud provider, a region): `AWS`
 * names none, and would pass the plan only to fail at the API. Refused with its lower-case spelling.
 * `samples` are ids of that kind (their upper-case spellings are the counterexamples).
 */
export function lowerCaseId(what: string, samples: readonly string[]): FormValidator<string> {
  return {
    form: 'lower-case id',
    description: `an id in lower case, as the platform writes ${what}s (e.g. \`${samples[0]}\`)`,
    samples,
    counterexamples: samples.map((s) => s.toUpperCase()).filter((s) => !samples.includes(s)),
    check: (v) =>
      v === v.toLowerCase()
        ? undefined
        : `must be in lower case, as the platform writes ${what}s: ${JSON.stringify(v.toLowerCase())}, ` +
          `got ${JSON.stringify(v)}`,
  };
}

/**
 * An absolute URL with one of these schemes and a host, written without whitespace. The host is
 * judged on the text: a URL parser reads `https:///path` as the host `path`, and would quietly
 * percent-encode a space the platform refuses.
 */
export function url(...schemes: string[]): FormValidator<string> {
  const named = schemes.map((s) => `\`${s}://\``).join(' or ');
  const what = `an ${named} URL with a host`;
  return {
    form: 'url',
    description: what,
    samples: schemes.map((s) => `${s}://hooks.example.com/tf/${s}`),
    counterexamples: [
      `${schemes[0]}:///path`,
      `${schemes[0]}://hooks.example.com/a b`,
      `${schemes[0]}:hooks.example.com`,
      'ftp://hooks.example.com/',
      'hooks.example.com/path',
    ],
    check(v) {
      const scheme =
        /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+@)?([^/?#\s:]+|\[[0-9a-fA-F:.]+\])(:\d{1,5})?([/?#]\S*)?$/i.exec(v);
      let ok = scheme !== null && schemes.includes(scheme[1]!.toLowerCase()) && !/\s/.test(v);
      if (ok) {
        try {
          ok = new URL(v).hostname !== '';
        } catch {
          ok = false;
        }
      }
      return ok ? undefined : `must be ${what.replace(/`/g, '')} and no spaces, got ${JSON.stringify(v)}`;
    },
  };
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;.]+$/;

/**
 * An e-mail address as the platform checks one: `local@domain.tld`, one `@`, no whitespace, commas or
 * semicolons. `trimmed` also allows surrounding whitespace, for arguments whose resource trims it.
 */
export function email(options: { trimmed?: boolean } = {}): FormValidator<string> {
  return {
    form: 'email',
    description: 'an e-mail address',
    samples: ['security@example.com', 'oncall@example.com'],
    counterexamples: ['security', 'security@', '@example.com', 'a@b@example.com', 'a,b@example.com', 'ops@example'],
    check: (v) =>
      EMAIL.test(options.trimmed ? v.trim() : v) ? undefined : `must be an e-mail address, got ${JSON.stringify(v)}`,
  };
}

/** An IPv4 network in CIDR notation, without leading zeros. */
export const ipv4Cidr: FormValidator<string> = {
  form: 'cidr',
  description: 'an IPv4 CIDR such as `192.168.0.0/16`',
  samples: ['10.0.0.0/8', '192.168.0.0/16'],
  counterexamples: ['10.0.0.0', '10.0.0.0/33', '256.0.0.0/8', '010.0.0.0/8', '10.0.0/8'],
  check(v) {
    const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(v);
    const ok = m?.slice(1, 5).every((o) => Number(o) <= 255 && (o === '0' || !o.startsWith('0'))) && Number(m[5]) <= 32;
    return ok ? undefined : `must be an IPv4 CIDR such as "10.0.0.0/8", got ${JSON.stringify(v)}`;
  },
};

// ---------------------------------------------------------------------------------------------------
// PEM

const PEM = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)\r?\n?-----END \1-----\s*$/;
const BASE64_LINE = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A PEM-encoded private key: the BEGIN/END lines of a private key around a base64 body (headers
 * such as `Proc-Type` allowed). The value is a secret: messages never quote it.
 */
export const pemPrivateKey: FormValidator<string> = {
  form: 'pem',
  description: 'a PEM-encoded private key (`-----BEGIN PRIVATE KEY-----` … `-----END PRIVATE KEY-----`)',
  samples: ['-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n'],
  counterexamples: [
    'not a key',
    '-----BEGIN PRIVATE KEY-----\nthis is not base64!\n-----END PRIVATE KEY-----\n',
    '-----BEGIN CERTIFICATE-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END CERTIFICATE-----\n',
    '-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n',
  ],
  check(v) {
    const m = PEM.exec(v.trim());
    const secret = ' (the value is not shown because it is secret)';
    if (!m || !/PRIVATE KEY$/.test(m[1]!))
      return (
        `must be a PEM-encoded private key, from a "-----BEGIN … PRIVATE KEY-----" line to its "-----END … ` +
        `PRIVATE KEY-----" line${secret}`
      );
    // Encapsulated headers (RFC 1421) come before a blank line; the rest is the base64 body.
    const lines = m[2]!.split(/\r?\n/);
    const blank = lines.indexOf('');
    const body = (lines.some((l) => /^[A-Za-z-]+: /.test(l)) && blank >= 0 ? lines.slice(blank + 1) : lines)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (body.length === 0)
      return (
        `must be a PEM-encoded private key with a key between its BEGIN and END lines, but the body is ` +
        `empty${secret}`
      );
    if (!body.every((l) => BASE64_LINE.test(l)))
      return (
        `must be a PEM-encoded private key with a base64 body between its BEGIN and END lines; the body has ` +
        `characters base64 does not use${secret}`
      );
    return undefined;
  },
};

// ---------------------------------------------------------------------------------------------------
// Names

/** C0 and C1 control characters (NUL, ESC of terminal escapes, newlines, tabs, DEL). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
/** Bidirectional embedding, override and isolate controls: they make a name read as another. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
/** What shows as nothing: whitespace, zero-width characters, the byte-order mark. */
const INVISIBLE = /^[\s\u200b-\u200d\u2060\ufeff]*$/u;

/**
 * The name of an object as people see it in the platform's console and lists: one line of visible
 * text, with no control characters (NUL, terminal escapes, newlines), no bidirectional controls, not
 * only whitespace or zero-width characters, and at most `maxCharacters` characters.
 */
export function name(maxCharacters: number): FormValidator<string> {
  return {
    form: 'name',
    description: `a name of one line of visible text, at most ${maxCharacters} characters`,
    samples: ['tf-sample-name', 'Ops alerts (EU)'],
    counterexamples: [
      'a\u0000b',
      '\u001b[31mred\u001b[0m',
      'two\nlines',
      'admin\u202egnp.exe',
      '\u200b\u200b',
      ' ',
      'x'.repeat(maxCharacters + 1),
    ],
    check(v) {
      const at = (re: RegExp) => [...v].findIndex((c) => re.test(c));
      const control = at(CONTROL);
      if (control >= 0)
        return (
          `must not hold control characters (such as NUL, escape sequences or line breaks); ` +
          `character ${control} is U+${hex(v, control)}`
        );
      const bidi = at(BIDI);
      if (bidi >= 0) return `must not hold bidirectional text controls; character ${bidi} is U+${hex(v, bidi)}`;
      if (INVISIBLE.test(v)) return 'must hold visible text, not only spaces or zero-width characters';
      const n = [...v].length;
      if (n > maxCharacters) return `must be at most ${maxCharacters} characters long, got ${n}`;
      return undefined;
    },
  };
}

const hex = (v: string, index: number) => [...v][index]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/** The form of a validator, when it checks one. */
export const formOf = (v: Validator<unknown>): ValueForm | undefined => (v as Partial<FormValidator<unknown>>).form;
