// The WebAssembly module against the command line: for every example situation file, the
// module's odds JSON equals `salvo odds FILE --format json` (exact, and Monte Carlo at a fixed
// seed: the same dice, so the same tallies and the same numbers), and a bad file gives the
// command line's message.
//
//   node tests/web/check_web.mjs BUILD-WEB/salvo_web.js BUILD/salvo SOURCE_DIR
//
// Exit 0: all equal; 1: a difference (each printed); 77: no module (scripts/web.sh not run),
// which CTest reports as skipped (never under CI=true: scripts/test.sh builds it).
import { existsSync, readFileSync, readdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

const [modulePath, salvo, root] = process.argv.slice(2).map((a) => resolve(a));
if (process.argv.length !== 5) {
  console.error('usage: node check_web.mjs SALVO_WEB_JS SALVO SOURCE_DIR');
  process.exit(2);
}
if (!existsSync(modulePath)) {
  if (process.env.CI === 'true') {
    console.log(`FAILED: no module at ${modulePath} (scripts/test.sh builds it with scripts/web.sh)`);
    process.exit(1);
  }
  console.log(`no module at ${modulePath} (build it with scripts/web.sh): skipped`);
  process.exit(77);
}

const createSalvo = createRequire(import.meta.url)(modulePath);
const salvoWeb = await createSalvo();

// Provenance that may differ between the two builds: the build (version, git revision) and
// the thread count. Everything else, results and their provenance, must be equal.
const kVolatile = new Set(['salvo', 'threads']);
const kTolerance = 1e-12;

let failures = 0;
function fail(what) {
  ++failures;
  if (failures <= 40 || process.env.SALVO_WEB_ALL) console.log(`FAIL ${what}`);
}

// Walk both documents side by side; numbers within kTolerance (exactly equal when `exact`).
function compare(a, b, path, exactNumbers, top = false) {
  if (typeof a === 'number' && typeof b === 'number') {
    const ok = exactNumbers ? a === b : Math.abs(a - b) <= kTolerance;
    if (!ok) fail(`${path}: web ${a}, cli ${b}`);
    return;
  }
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    fail(`${path}: web ${JSON.stringify(a)}, cli ${JSON.stringify(b)}`);
    return;
  }
  if (a === null || typeof a !== 'object') {
    if (a !== b) fail(`${path}: web ${JSON.stringify(a)}, cli ${JSON.stringify(b)}`);
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (top && kVolatile.has(k)) continue;
    if (!(k in a) || !(k in b)) {
      fail(`${path}/${k}: only in ${k in a ? 'web' : 'cli'}`);
      continue;
    }
    compare(a[k], b[k], `${path}/${k}`, exactNumbers);
  }
}

function cli(args) {
  return execFileSync(salvo, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}

// Every example: examples/ and its folders. A file a situation names (a 1943 chart, a unit
// library) is read from the module's file system, where the page puts it too: each example's
// folder is copied there under the same relative path.
const files = [];
for (const dir of ['examples', 'examples/compare', 'examples/charts', 'examples/bench', 'examples/1943', 'examples/fights', 'examples/infantry', 'examples/units']) {
  for (const f of readdirSync(join(root, dir)).sort()) {
    if (!f.endsWith('.toml')) continue;
    const rel = `${dir}/${f}`;
    const text = readFileSync(join(root, rel), 'utf8');
    if (!/^\s*ruleset\s*=/m.test(text)) continue;  // a chart or a unit library
    // A large fight (millions of states) takes minutes and gigabytes: a benchmark, not a check.
    if (dir === 'examples/bench' && /^\s*\[\[unit\]\]/m.test(text)) continue;
    files.push({ rel, text });
  }
}

for (const { rel, text } of dataFiles()) {
  salvoWeb.FS.mkdirTree('/' + rel.split('/').slice(0, -1).join('/'));
  salvoWeb.FS.writeFile('/' + rel, text);
}

const runs = [
  { label: 'exact', args: [], options: {}, exactNumbers: false },
  {
    label: 'mc 20000 seed 7',
    args: ['--method', 'mc', '--trials', '20000', '--seed', '7'],
    options: { method: 'mc', trials: 20000, seed: 7 },
    exactNumbers: true,
  },
];

// A fight of about a million states: a quarter of a minute per call in the module. Its exact
// odds are compared; Monte Carlo and explain run the same compiled program and are checked on
// the other files.
const kLarge = new Set(['examples/fights/three-shermans-vs-tiger.toml']);

let compared = 0;
function dataFiles() {
  const out = [];
  for (const dir of ['examples/1943', 'examples/units']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      const text = f.endsWith('.toml') ? readFileSync(join(root, dir, f), 'utf8') : '';
      if (text && !/^\s*ruleset\s*=/m.test(text)) out.push({ rel: `${dir}/${f}`, text });
    }
  }
  return out;
}
for (const { rel, text } of files) {
  for (const run of kLarge.has(rel) ? runs.slice(0, 1) : runs) {
    const web = JSON.parse(salvoWeb.odds(text, JSON.stringify({ name: rel, ...run.options })));
    if ('error' in web) {
      fail(`${rel} (${run.label}): the module says ${web.error}`);
      continue;
    }
    const ref = JSON.parse(cli(['odds', rel, '--format', 'json', ...run.args]));
    compare(web, ref, `${rel} (${run.label}) `, run.exactNumbers, true);
    ++compared;
  }
  if (kLarge.has(rel)) continue;
  // explain: the same text
  const explained = salvoWeb.explain(text, JSON.stringify({ name: rel }));
  if (explained !== cli(['explain', rel])) fail(`${rel}: explain differs`);
}

// The page's CSV download: `salvo odds --format csv`, text for text (6 decimals, no provenance)
for (const rel of ['examples/sherman75-vs-panther.toml', 'examples/sweep-range.toml', 'examples/1943/at-gun-vs-tank.toml']) {
  const csv = salvoWeb.odds(readFileSync(join(root, rel), 'utf8'), JSON.stringify({ name: rel, format: 'csv' }));
  if (csv !== cli(['odds', rel, '--format', 'csv'])) fail(`${rel}: the CSV differs`);
}

// compare: the examples' pairs of options, exact and on common dice, as `salvo compare` prints
for (const [a, b] of [['ammo-ap', 'ammo-apcr'], ['fire-in-pfph', 'hold-for-dff'], ['intensive-fire', 'no-intensive-fire'],
  ['fire-now-change-ca', 'wait-acquisition']]) {
  const files = [a, b].map((f) => `examples/compare/${f}.toml`);
  const texts = files.map((rel) => ({ name: rel, text: readFileSync(join(root, rel), 'utf8') }));
  for (const run of runs) {
    const web = JSON.parse(salvoWeb.compare(JSON.stringify(texts), JSON.stringify(run.options)));
    if ('error' in web) {
      fail(`compare ${files.join(' ')} (${run.label}): the module says ${web.error}`);
      continue;
    }
    const ref = JSON.parse(cli(['compare', ...files, '--format', 'json', ...run.args]));
    compare(web, ref, `compare ${a} ${b} (${run.label}) `, run.exactNumbers, true);
    ++compared;
  }
}

// A bad file: the message `salvo` prints on stderr (file:line: key: what), as {"error": ...}
const tmp = mkdtempSync(join(tmpdir(), 'salvo-web-'));
try {
  const bad = readFileSync(join(root, 'examples/sherman75-vs-panther.toml'), 'utf8').replace(/^rof = 1\b/m, "rof = 9");
  const unparsable = 'ruleset = "asl"\nname = "x\n';
  for (const [label, text] of [['out of range', bad], ['not TOML', unparsable]]) {
    const path = join(tmp, 'bad.toml');
    writeFileSync(path, text);
    let stderr = '';
    try {
      cli(['odds', path]);
      fail(`${label}: the command line accepted it`);
    } catch (e) {
      stderr = e.stderr.trimEnd();
    }
    const web = JSON.parse(salvoWeb.odds(text, JSON.stringify({ name: path })));
    if (web.error !== stderr) fail(`${label}: web ${JSON.stringify(web.error)}, cli ${JSON.stringify(stderr)}`);
    const webExplain = JSON.parse(salvoWeb.explain(text, JSON.stringify({ name: path })));
    if (webExplain.error !== stderr) fail(`${label} (explain): web ${JSON.stringify(webExplain.error)}, cli ${JSON.stringify(stderr)}`);
  }
  // A bad option: the command line's flag message
  const badTrials = JSON.parse(salvoWeb.odds('ruleset = "asl"\n', JSON.stringify({ method: 'mc', trials: 0 })));
  const cliTrials = (() => {
    try {
      cli(['odds', 'examples/sherman75-vs-panther.toml', '--method', 'mc', '--trials', '0']);
    } catch (e) {
      return e.stderr.trimEnd();
    }
    return '';
  })();
  if (badTrials.error !== cliTrials) fail(`--trials 0: web ${JSON.stringify(badTrials.error)}, cli ${JSON.stringify(cliTrials)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(`${compared} runs of ${files.length} example files compared (${salvoWeb.version()}): ${failures} difference(s)`);
process.exit(failures === 0 ? 0 : 1);
