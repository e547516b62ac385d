// The page's speed in headless Chromium (not a test: numbers for docs/web.md):
//   - time to first table, cold: a new browser profile, the page loaded from a local server,
//     from navigation start until the first odds table is drawn (module compile included);
//   - time per recomputation: a form change until its odds table is drawn, until everything is
//     redrawn (the range chart's 30-point sweep, explain, outcome bars too), and the module's
//     odds call alone;
//   - beside them, `salvo odds` on the same situation (process start included) and the same
//     call in Node (the module without the page).
// Medians of RUNS runs (default 15), the situation of README's worked example.
//
//   node bench/web_page.mjs BUILD-WEB/site BUILD/salvo SOURCE_DIR [RUNS]
//
// Needs the browser tests' packages (scripts/setup.sh --web) and a built page (scripts/web.sh).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

const [site, salvo, root] = process.argv.slice(2, 5).map((p) => resolve(p));
const runs = Number(process.argv[5] || 15);
const require = createRequire(join(root, 'tests/web/package.json'));
const puppeteer = require('puppeteer-core');
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const p = join(site, new URL(req.url, 'http://x').pathname.replace(/\.\./g, ''));
  const f = p.endsWith('/') ? join(p, 'index.html') : p;
  if (!existsSync(f)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' }).end(readFileSync(f));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/`;
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

// Cold loads: a new browser and profile each time.
const first = [];
for (let i = 0; i < runs; ++i) {
  const profile = mkdtempSync(join(tmpdir(), 'salvo-bench-'));
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...args, `--user-data-dir=${profile}`] });
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.firstTableMs, { timeout: 120000 });
  first.push(Number(await page.evaluate(() => document.body.dataset.firstTableMs)));
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}

// Recomputations: the range field changed, 1..RUNS hexes, in one page.
const profile = mkdtempSync(join(tmpdir(), 'salvo-bench-'));
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...args, `--user-data-dir=${profile}`] });
const page = await browser.newPage();
await page.goto(url);
await page.waitForFunction(() => document.body.dataset.firstTableMs);
const total = [], work = [], table = [], odds = [];
for (let i = 0; i < runs; ++i) {
  const n = await page.evaluate(() => Number(document.body.dataset.ready));
  const t = await page.evaluate(async (r, n) => {
    const t0 = performance.now();
    state.options.a.form['fire.range'] = String(r);
    changed();
    while (Number(document.body.dataset.ready) === n) await new Promise((ok) => setTimeout(ok, 0));
    const oddsT0 = performance.now();
    salvo.odds(textOf(option()), JSON.stringify({ name: 'situation.toml' }));
    return [performance.now() - t0 - 0, performance.now() - oddsT0];
  }, 1 + (i % 24), n);
  total.push(t[0] - t[1]);
  odds.push(t[1]);
  table.push(Number(await page.evaluate(() => document.body.dataset.tableMs)));
  work.push(Number(await page.evaluate(() => document.body.dataset.recomputeMs)));
}
await browser.close();
rmSync(profile, { recursive: true, force: true });
server.close();

// The command line on the same situation, process start included.
const cli = [];
for (let i = 0; i < runs; ++i) {
  const t0 = performance.now();
  execFileSync(salvo, ['odds', join(root, 'examples/sherman75-vs-panther.toml'), '--format', 'json']);
  cli.push(performance.now() - t0);
}
const fmt = (v) => `${median(v).toFixed(1)} ms`;
console.log(`runs: ${runs} each (medians)`);
console.log(`page: first table after load, cold   ${fmt(first)}`);
console.log(`page: a change to its new odds table  ${fmt(table)}`);
console.log(`page: the work of a change, all of it ${fmt(work)}`);
console.log(`page: a change to everything redrawn ${fmt(total)} (wall, the browser's task queue included)`);
console.log(`page: the module's odds call alone   ${fmt(odds)}`);
console.log(`cli:  salvo odds (process included)  ${fmt(cli)}`);
