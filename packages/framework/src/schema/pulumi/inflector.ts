/**
 * English pluralization and singularization, behaving like github.com/pulumi/inflector (the package the
 * Terraform bridge uses for property names and nested type names). Same rule tables, same order, and
 * the same algorithm (`getInflected`): irregular words first, then uninflected words, then the first
 * matching rule, else the word unchanged.
 *
 * Go's regexp replacement syntax differs from JavaScript's, and the bridge's results depend on it, so
 * replacements are expanded the way Go's `Regexp.Expand` does: `$name` takes the longest run of
 * letters, digits and underscores as the group name, so `$1s` names a group "1s" that does not exist
 * and expands to "" (this makes `Pluralize("hive")` return "" in the Go package; we keep that), and a
 * group that does not exist or did not take part in the match expands to "".
 *
 * The irregular-word branch reproduces a quirk too: it writes the first character of the *whole
 * input* before the rest of the replacement (so "Person" → "People", and "a person" → "a aeople").
 */

type Rule = readonly [pattern: RegExp, replacement: string];

/** A Go pattern string to a global JS RegExp; a leading `(?i)` becomes the `i` flag. */
function goRegExp(pattern: string): RegExp {
  return pattern.startsWith('(?i)') ? new RegExp(pattern.slice(4), 'gi') : new RegExp(pattern, 'g');
}

const rules = (items: ReadonlyArray<readonly [string, string]>): Rule[] =>
  items.map(([p, r]) => [goRegExp(p), r] as const);

// Words that are never inflected (inflector.go `uninflected`).
const UNINFLECTED = [
  'Amoyese',
  'bison',
  'Borghese',
  'bream',
  'breeches',
  'britches',
  'buffalo',
  'cantus',
  'carp',
  'chassis',
  'clippers',
  'cod',
  'coitus',
  'Congoese',
  'contretemps',
  'corps',
  'debris',
  'diabetes',
  'djinn',
  'eland',
  'elk',
  'equipment',
  'Faroese',
  'flounder',
  'Foochowese',
  'gallows',
  'Genevese',
  'Genoese',
  'Gilbertese',
  'graffiti',
  'headquarters',
  'herpes',
  'hijinks',
  'Hottentotese',
  'information',
  'innings',
  'jackanapes',
  'Kiplingese',
  'Kongoese',
  'Lucchese',
  'mackerel',
  'Maltese',
  '.*?media',
  'mews',
  'moose',
  'mumps',
  'Nankingese',
  'news',
  'nexus',
  'Niasese',
  'Pekingese',
  'Piedmontese',
  'pincers',
  'Pistoiese',
  'pliers',
  'Portuguese',
  'proceedings',
  'rabies',
  'rice',
  'rhinoceros',
  'salmon',
  'Sarawakese',
  'scissors',
  'sea[- ]bass',
  'series',
  'Shavese',
  'shears',
  'siemens',
  'species',
  'swine',
  'testes',
  'trousers',
  'trout',
  'tuna',
  'Vermontese',
  'Wenchowese',
  'whiting',
  'wildebeest',
  'Yengeese',
];
const UNINFLECTED_PLURALS = ['.*[nrlm]ese', '.*deer', '.*fish', '.*measles', '.*ois', '.*pox', '.*sheep', 'people'];
const UNINFLECTED_SINGULARS = ['.*[nrlm]ese', '.*deer', '.*fish', '.*measles', '.*ois', '.*pox', '.*sheep', '.*ss'];

const PLURAL_RULES = rules([
  ['(?i)(s)tatus$', '${1}${2}tatuses'],
  ['(?i)(quiz)$', '${1}zes'],
  ['(?i)^(ox)$', '${1}${2}en'],
  ['(?i)([m|l])ouse$', '${1}ice'],
  ['(?i)(matr|vert|ind)(ix|ex)$', '${1}ices'],
  ['(?i)(x|ch|ss|sh)$', '${1}es'],
  ['(?i)([^aeiouy]|qu)y$', '${1}ies'],
  ['(?i)(hive)$', '$1s'],
  ['(?i)(?:([^f])fe|([lre])f)$', '${1}${2}ves'],
  ['(?i)sis$', 'ses'],
  ['(?i)([ti])um$', '${1}a'],
  ['(?i)(p)erson$', '${1}eople'],
  ['(?i)(m)an$', '${1}en'],
  ['(?i)(c)hild$', '${1}hildren'],
  ['(?i)(buffal|tomat)o$', '${1}${2}oes'],
  ['(?i)(alumn|bacill|cact|foc|fung|nucle|radi|stimul|syllab|termin|vir)us$', '${1}i'],
  ['(?i)us$', 'uses'],
  ['(?i)(alias)$', '${1}es'],
  ['(?i)(ax|cris|test)is$', '${1}es'],
  ['s$', 's'],
  ['^$', ''],
  ['$', 's'],
]);

const PLURAL_IRREGULAR: ReadonlyArray<readonly [string, string]> = [
  ['atlas', 'atlases'],
  ['beef', 'beefs'],
  ['brother', 'brothers'],
  ['cafe', 'cafes'],
  ['child', 'children'],
  ['cookie', 'cookies'],
  ['corpus', 'corpuses'],
  ['cow', 'cows'],
  ['ganglion', 'ganglions'],
  ['genie', 'genies'],
  ['genus', 'genera'],
  ['graffito', 'graffiti'],
  ['hoof', 'hoofs'],
  ['loaf', 'loaves'],
  ['man', 'men'],
  ['money', 'monies'],
  ['mongoose', 'mongooses'],
  ['move', 'moves'],
  ['mythos', 'mythoi'],
  ['niche', 'niches'],
  ['numen', 'numina'],
  ['occiput', 'occiputs'],
  ['octopus', 'octopuses'],
  ['opus', 'opuses'],
  ['ox', 'oxen'],
  ['penis', 'penises'],
  ['person', 'people'],
  ['sex', 'sexes'],
  ['soliloquy', 'soliloquies'],
  ['testis', 'testes'],
  ['trilby', 'trilbys'],
  ['turf', 'turfs'],
  ['potato', 'potatoes'],
  ['hero', 'heroes'],
  ['tooth', 'teeth'],
  ['goose', 'geese'],
  ['foot', 'feet'],
];

const SINGULAR_RULES = rules([
  ['(?i)(s)tatuses$', '${1}${2}tatus'],
  ['(?i)^(.*)(menu)s$', '${1}${2}'],
  ['(?i)(quiz)zes$', '$1'],
  ['(?i)(matr)ices$', '${1}ix'],
  ['(?i)(vert|ind)ices$', '${1}ex'],
  ['(?i)^(ox)en', '$1'],
  ['(?i)(alias)(es)*$', '$1'],
  ['(?i)(alumn|bacill|cact|foc|fung|nucle|radi|stimul|syllab|termin|viri?)i$', '${1}us'],
  ['(?i)([ftw]ax)es', '$1'],
  ['(?i)(cris|ax|test)es$', '${1}is'],
  ['(?i)(shoe|slave)s$', '$1'],
  ['(?i)(o)es$', '$1'],
  ['ouses$', 'ouse'],
  ['([^a])uses$', '${1}us'],
  ['(?i)([m|l])ice$', '${1}ouse'],
  ['(?i)(cache)s$', '$1'],
  ['(?i)(x|ch|ss|sh)es$', '$1'],
  ['(?i)(m)ovies$', '${1}${2}ovie'],
  ['(?i)(s)eries$', '${1}${2}eries'],
  ['(?i)([^aeiouy]|qu)ies$', '${1}y'],
  ['(?i)(tive)s$', '$1'],
  ['(?i)([lre])ves$', '${1}f'],
  ['(?i)([^fo])ves$', '${1}fe'],
  ['(?i)(hive)s$', '$1'],
  ['(?i)(drive)s$', '$1'],
  ['(?i)(^analy)ses$', '${1}sis'],
  ['(?i)(analy|diagno|^ba|parenthe|progno|synop|the)ses$', '${1}sis'],
  ['(?i)([ti])a$', '${1}um'],
  ['(?i)(p)eople$', '${1}${2}erson'],
  ['(?i)(m)en$', '${1}an'],
  ['(?i)(c)hildren$', '${1}${2}hild'],
  ['(?i)(n)ews$', '${1}${2}ews'],
  ['eaus$', 'eau'],
  ['^(.*us)$', '$1'],
  ['(?i)s$', ''],
]);

const SINGULAR_IRREGULAR: ReadonlyArray<readonly [string, string]> = [
  ['foes', 'foe'],
  ['waves', 'wave'],
  ['curves', 'curve'],
  ['atlases', 'atlas'],
  ['beefs', 'beef'],
  ['brothers', 'brother'],
  ['cafes', 'cafe'],
  ['children', 'child'],
  ['cookies', 'cookie'],
  ['corpuses', 'corpus'],
  ['cows', 'cow'],
  ['ganglions', 'ganglion'],
  ['genies', 'genie'],
  ['genera', 'genus'],
  ['graffiti', 'graffito'],
  ['hoofs', 'hoof'],
  ['loaves', 'loaf'],
  ['men', 'man'],
  ['monies', 'money'],
  ['mongooses', 'mongoose'],
  ['moves', 'move'],
  ['mythoi', 'mythos'],
  ['niches', 'niche'],
  ['caches', 'cache'],
  ['numina', 'numen'],
  ['occiputs', 'occiput'],
  ['octopuses', 'octopus'],
  ['opuses', 'opus'],
  ['oxen', 'ox'],
  ['penises', 'penis'],
  ['people', 'person'],
  ['sexes', 'sex'],
  ['soliloquies', 'soliloquy'],
  ['testes', 'testis'],
  ['trilbys', 'trilby'],
  ['turfs', 'turf'],
  ['potatoes', 'potato'],
  ['heroes', 'hero'],
  ['teeth', 'tooth'],
  ['geese', 'goose'],
  ['feet', 'foot'],
];

interface Inflection {
  irregular: RegExp;
  irregularMap: Map<string, string>;
  uninflected: RegExp;
  rules: Rule[];
  cache: Map<string, string>;
}

function prepare(
  irregular: ReadonlyArray<readonly [string, string]>,
  uninflected: string[],
  ruleList: Rule[],
): Inflection {
  return {
    // (?i)(.*)\b((?:w1|w2|...))$
    irregular: new RegExp(`^(.*)\\b((?:${irregular.map(([w]) => w).join('|')}))$`, 'i'),
    irregularMap: new Map(irregular.map(([w, r]) => [w, r])),
    // (?i)(^(?:u1|u2|...))$
    uninflected: new RegExp(`(^(?:${uninflected.join('|')}))$`, 'i'),
    rules: ruleList,
    cache: new Map(),
  };
}

const PLURAL = prepare(PLURAL_IRREGULAR, [...UNINFLECTED, ...UNINFLECTED_PLURALS], PLURAL_RULES);
const SINGULAR = prepare(SINGULAR_IRREGULAR, [...UNINFLECTED, ...UNINFLECTED_SINGULARS], SINGULAR_RULES);

/** Go's `Regexp.Expand` for one match: `$1`, `${1}`, `$name`, `$$`. */
export function goExpand(template: string, groups: ReadonlyArray<string | undefined>): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '$') {
      out += c;
      continue;
    }
    const next = template[i + 1];
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string | undefined;
    let end = i + 1;
    if (next === '{') {
      const close = template.indexOf('}', i + 2);
      const inner = close < 0 ? '' : template.slice(i + 2, close);
      if (close >= 0 && /^[A-Za-z0-9_]+$/.test(inner)) {
        name = inner;
        end = close + 1;
      }
    } else {
      const m = /^[A-Za-z0-9_]+/.exec(template.slice(i + 1));
      if (m) {
        name = m[0];
        end = i + 1 + m[0].length;
      }
    }
    if (name === undefined) {
      // Malformed: Go writes the '$' as text.
      out += '$';
      continue;
    }
    if (/^[0-9]+$/.test(name)) {
      const n = Number(name);
      if (n < groups.length) out += groups[n] ?? '';
    }
    // Named groups are never used by the inflector's patterns: a name expands to "".
    i = end - 1;
  }
  return out;
}

function inflect(inf: Inflection, s: string): string {
  const cached = inf.cache.get(s);
  if (cached !== undefined) return cached;
  let result: string | undefined;

  const irr = inf.irregular.exec(s);
  if (irr && irr.length >= 3) {
    const replacement = inf.irregularMap.get(irr[2]!.toLowerCase()) ?? irr[2]!;
    result = irr[1]! + s.slice(0, 1) + replacement.slice(1);
  } else if (inf.uninflected.test(s)) {
    result = s;
  } else {
    for (const [re, replacement] of inf.rules) {
      re.lastIndex = 0;
      if (re.test(s)) {
        re.lastIndex = 0;
        result = s.replace(re, (...args: unknown[]) => {
          // args: match, p1..pn, offset, string[, groups]
          const hasNamed = typeof args[args.length - 1] === 'object' && args[args.length - 1] !== null;
          const groupCount = args.length - (hasNamed ? 3 : 2);
          return goExpand(replacement, args.slice(0, groupCount) as Array<string | undefined>);
        });
        break;
      }
    }
    result ??= s;
  }
  inf.cache.set(s, result);
  return result;
}

/** `inflector.Pluralize`. */
export function pluralize(s: string): string {
  return inflect(PLURAL, s);
}

/** `inflector.Singularize`. */
export function singularize(s: string): string {
  return inflect(SINGULAR, s);
}
