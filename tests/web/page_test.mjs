// The page (build-web/site/) in Debian's Chromium, driven by puppeteer-core (tests/web/
// package.json, installed by scripts/setup.sh --web; it downloads no browser). Each CTest entry
// runs one check:
//
//   node tests/web/page_test.mjs CHECK SITE_DIR BUILD/salvo SOURCE_DIR ARTIFACTS_DIR
//
// CHECK: load, file, readme, parity, share, bad-toml, mc, screenshots. Exit 0 passed, 1 failed,
// 77 skipped (no page built, no chromium or no puppeteer-core; never under CI=true, where a
// missing piece fails).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { extname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

const [check, siteDir, salvo, root, artifacts] = process.argv.slice(2).map((a, i) => (i ? resolve(a) : a));
const chromium = process.env.SALVO_CHROMIUM || '/usr/bin/chromium';

function skip(why) {
  if (process.env.CI === 'true') {
    console.log(`FAILED: ${why} (CI=true: scripts/test.sh builds the page and setup.sh --web installs what it needs)`);
    process.exit(1);
  }
  console.log(`SKIP: ${why}`);
  process.exit(77);
}
if (!existsSync(join(siteDir, 'index.html')) || !existsSync(join(siteDir, 'salvo_web.js')))
  skip(`no page in ${siteDir} (build it with scripts/web.sh)`);
if (!existsSync(chromium)) skip(`no ${chromium} (scripts/setup.sh installs chromium)`);
let puppeteer;
try {
  puppeteer = createRequire(import.meta.url)('puppeteer-core');
} catch {
  skip('no puppeteer-core in tests/web/node_modules (scripts/setup.sh --web installs it)');
}

let failures = 0;
function fail(what) {
  ++failures;
  if (failures <= 30) console.log(`FAIL ${what}`);
}
function cli(args, cwd = root) {
  return execFileSync(salvo, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}
function cliError(args, cwd = root) {
  try {
    cli(args, cwd);
  } catch (e) {
    return e.stderr.trimEnd();
  }
  return null;
}

// The JSON documents of page and command line: equal but for the build (salvo) and the thread
// count; numbers to 1e-12 (exact), or exactly (Monte Carlo: the same dice).
function compareJson(a, b, path, tolerance, top = true) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (!(Math.abs(a - b) <= tolerance)) fail(`${path}: page ${a}, cli ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (a !== b) fail(`${path}: page ${JSON.stringify(a)}, cli ${JSON.stringify(b)}`);
    return;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (top && (k === 'salvo' || k === 'threads')) continue;
    if (!(k in a) || !(k in b)) fail(`${path}/${k}: only in ${k in a ? 'the page' : 'the command line'}`);
    else compareJson(a[k], b[k], `${path}/${k}`, tolerance, false);
  }
}

// A static server for the site, on 127.0.0.1 only.
const kTypes = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const path = join(siteDir, decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/\.\./g, ''));
  const file = path.endsWith('/') ? join(path, 'index.html') : path;
  if (!existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': kTypes[extname(file)] || 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const profile = mkdtempSync(join(tmpdir(), 'salvo-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
});

// A page with its console errors collected; ready once the first table is drawn.
async function open(url = base, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('requestfailed', (r) => page.errors.push(`request failed: ${r.url()}`));
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.dataset.ready) > 0 || !document.getElementById('input-error').hidden, { timeout: 60000 });
  return page;
}
// Wait until the page has recomputed after an action (its counter moved, or an error shows), and
// no change is still waiting: a value typed key by key schedules a recomputation on its first
// key, and the counter can move for that one while the last key's is still to come (app.js
// `pending`; the odds table is marked stale until it is current).
async function settled(page, before) {
  await page.waitForFunction((n) => document.getElementById('status').classList.contains('error') ||
    (Number(document.body.dataset.ready) > n && !pending && !document.getElementById('odds').classList.contains('stale')),
  { timeout: 60000 }, before);
}
const readyCount = (page) => page.evaluate(() => Number(document.body.dataset.ready || 0));
async function setToml(page, name, text) {
  const n = await readyCount(page);
  await page.evaluate((name, text) => loadText(name, text), name, text);
  await settled(page, n);
}
const pageJson = (page) => page.evaluate(() => (last ? last.oddsText : null));

const checks = {
  async load() {
    const page = await open();
    const cells = await page.$$eval('#odds table tr', (rows) => rows.length);
    if (cells < 5) fail(`the first table has ${cells} rows`);
    const version = await page.$eval('#version', (e) => e.textContent);
    if (!version.startsWith('salvo ')) fail(`version shows ${version}`);
    if (!(await page.$('#range-chart svg'))) fail('no range chart');
    if (!(await page.$('#outcomes svg'))) fail('no outcome bars');
    const explain = await page.$eval('#explain', (e) => e.textContent);
    if (!/C5\.9/.test(explain)) fail(`the explain trail lacks Case I (C5.9): ${JSON.stringify(explain.slice(0, 200))}`);
    for (const e of page.errors) fail(`console: ${e}`);
  },

  // Opened from disk: the same page, no server.
  async file() {
    const page = await open('file://' + join(siteDir, 'index.html'));
    if ((await page.$$eval('#odds table tr', (r) => r.length)) < 5) fail('no table from file://');
    for (const e of page.errors) fail(`console (file://): ${e}`);
  },

  // The README's worked example typed into the form shows the README's table.
  async readme() {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = readme.split('<!-- output: build/salvo odds examples/sherman75-vs-panther.toml -->')[1].split('```')[1];
    const rows = [...block.matchAll(/^(p_\w+|e_\w+)\s+(\S+)\s+(\S+)$/gm)].map((m) => [m[1], m[2], m[3]]);
    if (rows.length < 10) fail(`read ${rows.length} rows from the README`);
    const page = await open();
    let n = await readyCount(page);
    await page.click('#clear-form');
    await settled(page, n);
    const type = async (key, v) => {
      const id = '#f-' + key.replace(/\./g, '-');
      n = await readyCount(page);
      if (await page.$eval(id, (e) => e.tagName === 'SELECT')) await page.select(id, v);
      else if (await page.$eval(id, (e) => e.type === 'checkbox')) await page.click(id);
      else await page.type(id, v);
      await settled(page, n);
    };
    await type('name', 'Sherman 75 vs Panther');
    for (const [k, v] of [['firer.nationality', 'american'], ['firer.year', '1944'], ['firer.month', '6'], ['firer.gun', '75'],
      ['firer.ammo', 'AP'], ['firer.rof', '1'], ['firer.gun_type', 'T'], ['target.armor.hull_front', '18'],
      ['target.armor.hull_side', '8'], ['target.armor.turret_front', '14'], ['target.armor.turret_side', '8'],
      ['target.facing', 'front'], ['fire.range', '6'], ['fire.phase', 'prep'], ['fire.buttoned_up', 'true']])
      await type(k, v);
    const shown = await page.$$eval('#odds tr[data-q]', (trs) => trs.map((tr) => [tr.dataset.q, ...[...tr.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent)]));
    const table = new Map(shown.map(([q, a, b]) => [q, [a, b]]));
    for (const [q, first, phase] of rows) {
      const got = table.get(q);
      if (!got || got[0] !== first || got[1] !== phase) fail(`${q}: README ${first} ${phase}, page ${got}`);
    }
    // and the page's TOML is the example's situation: the command line agrees to 1e-12
    const tmp = mkdtempSync(join(tmpdir(), 'salvo-page-'));
    writeFileSync(join(tmp, 'situation.toml'), await page.$eval('#toml', (e) => e.value));
    compareJson(JSON.parse(await pageJson(page)), JSON.parse(cli(['odds', 'situation.toml', '--format', 'json'], tmp)), '', 1e-12);
    rmSync(tmp, { recursive: true });
    console.log(`${rows.length} README rows checked`);
    for (const e of page.errors) fail(`console: ${e}`);
  },

  // 50 situations: every example (not the benchmarks), then random forms, page JSON against
  // `salvo odds --format json`; a refused random form gives the command line's message.
  async parity() {
    const page = await open();
    // The three-Sherman fight takes about 16 s a call in the module (3 s natively), and the
    // platoon fight is over the exact engine's limit (the page's table is exact: it shows the
    // refusal, and its Monte Carlo button runs the fight in the worker): the Node check
    // (check_web.mjs) compares both, the page's check leaves them out.
    const notHere = ['examples/fights/three-shermans-vs-tiger.toml', 'examples/fights/platoon-2v2.toml'];
    const examples = (await page.evaluate(() => Object.entries(SALVO_EXAMPLES.situations)))
      .filter(([path]) => !notHere.includes(path));
    let compared = 0;
    for (const [path, text] of examples) {
      await setToml(page, path, text);
      const json = await pageJson(page);
      if (!json) { fail(`${path}: the page shows an error`); continue; }
      compareJson(JSON.parse(json), JSON.parse(cli(['odds', path, '--format', 'json'])), path, 1e-12);
      ++compared;
    }
    // Random forms: a fixed-seed generator over the form's fields (LCG, so the list repeats).
    const fields = await page.evaluate(() => SALVO_FIELDS.flatMap((s) => s.fields.map((f) => ({ ...f, key: `${s.section}.${f.key}` }))));
    let seed = 20261127;
    const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const ints = { 'firer.year': [1939, 1945], 'firer.month': [1, 12], 'firer.rof': [0, 3], 'firer.breakdown': [9, 12],
      'firer.armor_leader': [-1, 0], 'target.tem': [0, 3], 'fire.range': [1, 24], 'fire.ca_change': [0, 2], 'fire.acquisition': [0, 2] };
    const afs = ['0', '1', '2', '3', '4', '6', '8', '11', '14', '18', '26'];
    const guns = ['37', '37L', '47', '50L', '57', '75', '75L', '75LL', '76L', '88', '88L', '88LL', '122'];
    const tmp = mkdtempSync(join(tmpdir(), 'salvo-page-'));
    let refused = 0, tries = 0;
    while (compared < 50 && tries < 400) {
      ++tries;
      const form = { name: `random ${tries}` };
      for (const f of fields) {
        if (f.advanced || rand(3) === 0) continue;
        if (f.key.startsWith('target.armor.')) form[f.key] = afs[rand(afs.length)];
        else if (f.key === 'firer.gun') form[f.key] = guns[rand(guns.length)];
        else if (f.kind === 'select') form[f.key] = f.options[rand(f.options.length)];
        else if (f.kind === 'bool') { if (rand(4) === 0) form[f.key] = 'true'; }
        else if (ints[f.key]) form[f.key] = String(ints[f.key][0] + rand(ints[f.key][1] - ints[f.key][0] + 1));
      }
      const n = await readyCount(page);
      await page.evaluate((form) => { state.options.a = { mode: 'form', form, toml: '', name: 'situation.toml' }; showOption(); changed(); }, form);
      await settled(page, n);
      const text = await page.$eval('#toml', (e) => e.value);
      writeFileSync(join(tmp, 'situation.toml'), text);
      const json = await pageJson(page);
      if (!json) {
        if (process.env.SALVO_WEB_VERBOSE) console.log(await page.$eval('#input-error', (e) => e.textContent.split('\n')[0]));
        const shown = await page.$eval('#input-error', (e) => e.textContent.split('\n')[0]);
        const expected = cliError(['odds', 'situation.toml', '--format', 'json'], tmp);
        if (shown !== expected) fail(`random ${tries}: page says ${shown}, cli ${expected}`);
        ++refused;
        continue;
      }
      compareJson(JSON.parse(json), JSON.parse(cli(['odds', 'situation.toml', '--format', 'json'], tmp)), `random ${tries}`, 1e-12);
      ++compared;
    }
    rmSync(tmp, { recursive: true });
    if (compared < 50) fail(`only ${compared} situations compared`);
    // The platoon fight is over the exact limit: the page names its own way to run it.
    const platoon = 'examples/fights/platoon-2v2.toml';
    await page.evaluate((p) => loadText(p, SALVO_EXAMPLES.situations[p]), platoon);
    await page.waitForFunction(() => document.getElementById('input-error').textContent.includes('more than the exact engine'),
      { timeout: 60000 }).catch(() => {});
    const over = await page.$eval('#input-error', (e) => (e.hidden ? '' : e.textContent));
    if (!over.includes('more than the exact engine solves') || !over.endsWith('run it with the Monte Carlo button below'))
      fail(`platoon-2v2: the page says ${JSON.stringify(over)}`);
    console.log(`${compared} situations compared (${examples.length} examples), ${refused} refused forms with the command line's message`);
    for (const e of page.errors) fail(`console: ${e}`);
  },

  // A link restores the situation: the form (or the TOML text), the compare option and the table.
  async share() {
    const page = await open();
    let n = await readyCount(page);
    await page.select('#f-target-facing', 'side');
    await settled(page, n);
    n = await readyCount(page);
    await page.click('#compare-on');
    await settled(page, n);
    n = await readyCount(page);
    await page.click('#edit-b');
    await settled(page, n);
    n = await readyCount(page);
    await page.type('#f-fire-range', '2');  // "62": B at 62 hexes
    await settled(page, n);
    const linked = () => !document.body.dataset.hashPending && location.hash.slice(1) === document.body.dataset.hash;
    await page.waitForFunction(linked);
    const url = page.url();
    const before = await page.evaluate(() => ({ a: textOf(state.options.a), b: textOf(state.options.b), odds: last.oddsText, cmp: document.getElementById('compare-table').textContent }));
    const again = await open(url);
    const after = await again.evaluate(() => ({ a: textOf(state.options.a), b: textOf(state.options.b), odds: last.oddsText, cmp: document.getElementById('compare-table').textContent }));
    for (const k of ['a', 'b', 'odds', 'cmp']) if (before[k] !== after[k]) fail(`${k} differs after the link:\n${before[k]}\n---\n${after[k]}`);
    if (!/range = 62/.test(after.b)) fail(`B lost its range: ${after.b}`);
    // the comparison's B column is B's own table (the option edited), its A column A's
    const cells = await again.evaluate(() => {
      const row = document.querySelector('#compare-table tr[data-q="p_kill"][data-w="phase"]').children;
      const own = document.querySelector('#odds tr[data-q="p_kill"] td[data-w="phase"]').textContent;
      return { a: row[2].textContent, b: row[3].textContent, own };
    });
    if (cells.b !== cells.own || cells.a === cells.b) fail(`compare: A ${cells.a}, B ${cells.b}, B's table ${cells.own}`);
    // its note names the window compared, from the file's display hints
    const note = await again.evaluate(() => document.getElementById('compare-table').nextElementSibling.textContent);
    if (!note.includes("P(A better) is the chance that A's phase does better than B's")) fail(`compare's note: ${note}`);
    // a TOML text round-trips as text
    await setToml(again, 'examples/1943/at-gun-vs-tank.toml', await again.evaluate(() => SALVO_EXAMPLES.situations['examples/1943/at-gun-vs-tank.toml']));
    await again.waitForFunction(linked);
    const third = await open(again.url());
    const text = await third.evaluate(() => textOf(option()));
    if (text !== (await again.evaluate(() => textOf(option())))) fail('a TOML text did not round-trip');
    console.log(`link of ${url.length} characters`);
    // a fight's: its window, and whose view "better" takes
    const fight = await open();
    const sherman = 'examples/fights/sherman-vs-panther.toml';
    await setToml(fight, sherman, await fight.evaluate((f) => SALVO_EXAMPLES.situations[f], sherman));
    n = await readyCount(fight);
    await fight.click('#compare-on');
    await settled(fight, n);
    const fightNote = await fight.evaluate(() => document.getElementById('compare-table').nextElementSibling.textContent);
    if (!fightNote.includes("P(A better) is the chance that A's fight does better for side A than B's")) fail(`a fight's compare note: ${fightNote}`);
    for (const p of [page, again, third, fight]) for (const e of p.errors) fail(`console: ${e}`);
  },

  // A bad file: the command line's message, with its line, next to the TOML and next to the field.
  async 'bad-toml'() {
    const page = await open();
    const good = readFileSync(join(root, 'examples/sherman75-vs-panther.toml'), 'utf8');
    const bad = good.replace(/^rof = 1\b/m, 'rof = 9');
    const tmp = mkdtempSync(join(tmpdir(), 'salvo-page-'));
    for (const [label, text] of [['out of range', bad], ['not TOML', 'ruleset = "asl"\nname = "x\n']]) {
      writeFileSync(join(tmp, 'situation.toml'), text);
      const expected = cliError(['odds', 'situation.toml'], tmp);
      await setToml(page, 'situation.toml', text);
      const shown = await page.$eval('#input-error', (e) => (e.hidden ? '' : e.textContent));
      if (!expected || !shown.startsWith(expected)) fail(`${label}: page ${JSON.stringify(shown)}, cli ${JSON.stringify(expected)}`);
      const stale = await page.$eval('#odds', (e) => e.classList.contains('stale'));
      if (!stale) fail(`${label}: the old table is not marked`);
    }
    await setToml(page, 'situation.toml', bad);
    const withLine = await page.$eval('#input-error', (e) => e.textContent);
    if (!/\|\s*rof = 9/.test(withLine)) fail(`the TOML line is not shown: ${withLine}`);
    // the form: the message sits next to the ROF field
    let n = await readyCount(page);
    await page.click('#to-form');
    await settled(page, n);
    n = await readyCount(page);
    await page.$eval('#f-firer-rof', (e) => { e.value = ''; });
    await page.type('#f-firer-rof', '9');
    await settled(page, n);
    const msg = await page.$eval('.field[data-key="firer.rof"] .msg', (e) => e.textContent);
    if (msg !== 'expected an integer in 0..3, got 9') fail(`ROF field says ${JSON.stringify(msg)}`);
    rmSync(tmp, { recursive: true });
    for (const e of page.errors) fail(`console: ${e}`);
  },

  // Monte Carlo in the worker equals the command line's for the same seed and trials; Stop
  // gives the runner's interrupted numbers for the trials run.
  async mc() {
    const page = await open();
    const text = await page.$eval('#toml', (e) => e.value);
    const tmp = mkdtempSync(join(tmpdir(), 'salvo-page-'));
    writeFileSync(join(tmp, 'situation.toml'), text);
    await page.$eval('#mc-trials', (e) => { e.value = '300000'; });
    await page.$eval('#mc-seed', (e) => { e.value = '7'; });
    await page.click('#mc-run');
    await page.waitForFunction(() => document.body.dataset.mc === 'done', { timeout: 120000 });
    const web = JSON.parse(await page.$eval('#mc-result', (e) => e.dataset.json));
    const ref = JSON.parse(cli(['odds', 'situation.toml', '--method', 'mc', '--trials', '300000', '--seed', '7', '--format', 'json'], tmp));
    compareJson(web, ref, '', 0);
    // Stop: after the first progress report
    await page.$eval('#mc-trials', (e) => { e.value = '1000000000'; });
    await page.evaluate(() => { delete document.body.dataset.mc; });
    await page.click('#mc-run');
    await page.waitForFunction(() => document.getElementById('mc-progress').value > 0, { timeout: 60000 });
    await page.click('#mc-stop');
    await page.waitForFunction(() => document.body.dataset.mc === 'stopped', { timeout: 60000 });
    const stopped = JSON.parse(await page.$eval('#mc-result', (e) => e.dataset.json));
    const trials = stopped.situations[0].results.mc.trials;
    if (!stopped.interrupted || trials % 65536 !== 0 || trials <= 0) fail(`stopped run: interrupted ${stopped.interrupted}, ${trials} trials`);
    const k = JSON.parse(cli(['odds', 'situation.toml', '--method', 'mc', '--trials', String(trials), '--seed', '7', '--format', 'json'], tmp));
    compareJson(stopped.situations[0].results.mc.phase, k.situations[0].results.mc.phase, 'stopped phase', 0, false);
    if (!(await page.$eval('#mc-result .banner', (e) => e.textContent.startsWith('Stopped')))) fail('no "Stopped" banner');
    rmSync(tmp, { recursive: true });
    console.log(`300000 trials equal; stopped after ${trials} trials`);
    for (const e of page.errors) fail(`console: ${e}`);
  },

  // Screenshots at a desktop's and a phone's width, saved as artifacts and checked not blank;
  // at the phone's width nothing is wider than the screen.
  async screenshots() {
    mkdirSync(artifacts, { recursive: true });
    for (const [label, viewport] of [['desktop', { width: 1280, height: 1100 }], ['phone', { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true }]]) {
      const page = await open(base, viewport);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) fail(`${label}: the page is ${overflow} px wider than the screen`);
      const file = join(artifacts, `page-${label}.png`);
      await page.screenshot({ path: file });
      try {
        execFileSync('/usr/bin/python3', [join(root, 'tests/analysis/check_png.py'), file, '--min-width', '390', '--min-height', '800'], { stdio: 'inherit' });
      } catch {
        fail(`${label}: ${file} is blank or malformed`);
      }
      for (const e of page.errors) fail(`console: ${e}`);
    }
    console.log(`screenshots in ${artifacts}`);
  },
};

try {
  if (!checks[check]) {
    console.log(`unknown check ${check}: ${Object.keys(checks).join(', ')}`);
    failures = 1;
  } else {
    await checks[check]();
  }
} catch (e) {
  fail(`${check}: ${e.stack || e}`);
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${check}: ${failures === 0 ? 'passed' : `${failures} failure(s)`}`);
process.exit(failures === 0 ? 0 : 1);
