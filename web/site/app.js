// The page: a form (or a TOML text) becomes a situation file; salvo's module (salvo_web.js)
// computes everything; the page draws the JSON it returns. No rules here: every number, message
// and the explain trail come from the same C++ as `salvo odds`, `compare` and `explain`.
'use strict';

const $ = (id) => document.getElementById(id);
const RANGES = Array.from({ length: 30 }, (_, i) => i + 1);

// ---------------------------------------------------------------------------------------------
// State: options A and B, each a form or a TOML text; the files situations name.

const SHERMAN = {
  name: 'Sherman 75 vs Panther', 'firer.nationality': 'american', 'firer.year': '1944', 'firer.month': '6',
  'firer.gun': '75', 'firer.ammo': 'AP', 'firer.rof': '1', 'firer.gun_type': 'T',
  'target.armor.hull_front': '18', 'target.armor.hull_side': '8', 'target.armor.turret_front': '14',
  'target.armor.turret_side': '8', 'target.facing': 'front', 'fire.range': '6', 'fire.phase': 'prep',
  'fire.buttoned_up': 'true',
};
const state = {
  view: 'form',  // the pane shown: the form, or the TOML it writes (a text edited by hand is always shown)
  edit: 'a',
  compare: false,
  options: { a: { mode: 'form', form: { ...SHERMAN }, toml: '', name: 'situation.toml' }, b: null },
  files: {},  // path -> text, in the module's file system
};
let salvo = null;
let last = null;  // the last computation: { text, name, oddsText, odds }

const option = () => state.options[state.edit];

// ---------------------------------------------------------------------------------------------
// Form <-> TOML (the page writes TOML; it never reads it: a pasted file stays text)

function tomlString(s) {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/[\u0000-\u001f]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '"';
}
function tomlValue(field, v) {
  if (field.kind === 'bool' || field.kind === 'tri') return v;
  if (field.kind === 'int' && /^[+-]?\d+$/.test(v.trim())) return String(Number(v.trim()));
  // 'ints': numbers separated by commas or spaces, written as a TOML array ("11, 9, 8" -> [11, 9, 8])
  if (field.kind === 'ints' && /^[\s,]*[+-]?\d+([\s,]+[+-]?\d+)*[\s,]*$/.test(v))
    return '[' + v.trim().split(/[\s,]+/).filter((x) => x).map(Number).join(', ') + ']';
  return tomlString(v);
}
function tomlFromForm(form) {
  const out = ['ruleset = "asl"'];
  if (form.name) out.push('name = ' + tomlString(form.name));
  for (const section of SALVO_FIELDS) {
    const lines = [];
    const groups = {};
    for (const f of section.fields) {
      const v = form[`${section.section}.${f.key}`];
      if (v === undefined || v === '') continue;
      if (f.group) {
        (groups[f.group] ||= []).push(`${f.key.slice(f.group.length + 1)} = ${tomlValue(f, v)}`);
      } else {
        lines.push(`${f.key} = ${tomlValue(f, v)}`);
      }
    }
    for (const [g, parts] of Object.entries(groups)) lines.push(`${g} = { ${parts.join(', ')} }`);
    if (lines.length) out.push('', `[${section.section}]`, ...lines);
  }
  return out.join('\n') + '\n';
}
function textOf(opt) { return opt.mode === 'form' ? tomlFromForm(opt.form) : opt.toml; }

function fieldId(key) { return 'f-' + key.replace(/\./g, '-'); }

function buildForm() {
  const form = $('form');
  const name = document.createElement('label');
  name.className = 'field';
  name.innerHTML = '<span>situation name</span><input id="f-name" placeholder="the file name">';
  form.append(name);
  for (const section of SALVO_FIELDS) {
    const set = document.createElement('fieldset');
    set.innerHTML = `<legend>${section.title}</legend>`;
    const main = document.createElement('div');
    main.className = 'fields';
    const more = document.createElement('details');
    more.className = 'more';
    more.innerHTML = `<summary>more ${section.title.toLowerCase()} keys</summary>`;
    const moreFields = document.createElement('div');
    moreFields.className = 'fields';
    more.append(moreFields);
    for (const f of section.fields) {
      const key = `${section.section}.${f.key}`;
      const label = document.createElement('label');
      label.className = 'field' + (f.kind === 'bool' ? ' check' : '');
      label.dataset.key = key;
      label.title = `${key}${f.rule ? ' (' + f.rule + ')' : ''}${f.hint ? ': ' + f.hint : ''}`;
      let input;
      if (f.kind === 'select' || f.kind === 'tri') {
        input = document.createElement('select');
        const options = f.kind === 'tri' ? ['true', 'false'] : f.options;
        input.append(new Option(`(${f.def})`, ''));
        for (const o of options) input.append(new Option(o, o));
      } else {
        input = document.createElement('input');
        if (f.kind === 'bool') input.type = 'checkbox';
        else {
          input.placeholder = f.def || '';
          if (f.kind === 'int') input.inputMode = 'numeric';
        }
      }
      input.id = fieldId(key);
      const span = document.createElement('span');
      span.textContent = f.label;
      const msg = document.createElement('span');
      msg.className = 'msg';
      if (f.kind === 'bool') label.append(input, span, msg);
      else label.append(span, input, msg);
      (f.advanced ? moreFields : main).append(label);
    }
    set.append(main);
    if (moreFields.children.length) set.append(more);
    form.append(set);
  }
  const clear = document.createElement('button');
  clear.type = 'button';
  clear.id = 'clear-form';
  clear.textContent = 'clear the form';
  form.append(clear);
  clear.onclick = () => { option().form = {}; showOption(); changed(); };
  form.addEventListener('input', readForm);
  form.addEventListener('change', readForm);
}

function readForm() {
  const form = {};
  const name = $('f-name').value;
  if (name) form.name = name;
  for (const section of SALVO_FIELDS)
    for (const f of section.fields) {
      const key = `${section.section}.${f.key}`;
      const el = $(fieldId(key));
      const v = f.kind === 'bool' ? (el.checked ? 'true' : '') : el.value;
      if (v !== '') form[key] = v;
    }
  option().form = form;
  changed();
}

function showOption() {
  const opt = option();
  const isForm = opt.mode === 'form' && state.view === 'form';
  $('tab-form').setAttribute('aria-selected', String(isForm));
  $('tab-toml').setAttribute('aria-selected', String(!isForm));
  $('form').hidden = !isForm;
  $('toml-pane').hidden = isForm;
  $('f-name').value = opt.form.name || '';
  for (const section of SALVO_FIELDS)
    for (const f of section.fields) {
      const key = `${section.section}.${f.key}`;
      const el = $(fieldId(key));
      const v = opt.form[key] || '';
      if (f.kind === 'bool') el.checked = v === 'true'; else el.value = v;
      if (v && f.advanced) el.closest('details').open = true;
    }
  $('toml').value = textOf(opt);
  $('edit-a').setAttribute('aria-pressed', String(state.edit === 'a'));
  $('edit-b').setAttribute('aria-pressed', String(state.edit === 'b'));
  $('options-tabs').hidden = !state.compare;
  $('compare-on').checked = state.compare;
  const note = $('editing-note');
  note.hidden = !state.compare;
  note.textContent = state.compare ? `Editing option ${state.edit.toUpperCase()}; the tables below show it, the comparison A against B.` : '';
}

// ---------------------------------------------------------------------------------------------
// Numbers as the text table shows them

function percent(p) {
  const v = 100 * p;
  if (p > 0 && v < 0.05) return v < 0.001 ? '<0.001%' : v.toPrecision(2) + '%';
  if (p < 1 && v > 99.95) return v > 99.999 ? '>99.999%' : (100 - (100 - v)).toFixed(3) + '%';
  return v.toFixed(1) + '%';
}
function value(q) { return q === undefined ? '' : 'p' in q ? percent(q.p) : q.mean.toFixed(3); }
function interval(q) {
  if (!q || !('lo' in q) || q.lo === q.hi) return '';
  return 'p' in q ? `${percent(q.lo)}–${percent(q.hi)}` : `${q.lo.toFixed(3)}–${q.hi.toFixed(3)}`;
}
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

// One situation: every quantity by window; several: one row each with the key quantities.
function oddsTables(odds, hints, method) {
  const box = document.createDocumentFragment();
  const situations = odds.situations.filter((s) => s.results[method]);
  if (situations.length === 1) {
    const s = situations[0];
    const r = s.results[method];
    const sweep = Object.entries(s.sweep).map(([k, v]) => `${k} = ${v}`).join(', ');
    box.append(el('p', { class: 'caption' }, `${s.name}${sweep ? ' (' + sweep + ')' : ''} — ${s.file}`));
    const withIv = method === 'mc';
    const table = el('table', { class: 'odds', 'data-method': method });
    const head = el('tr', {}, el('th', {}, ''), el('th', {}, hints.first_window || 'first shot'), el('th', {}, hints.run_window || 'phase'));
    if (withIv) head.append(el('th', {}, '95% (phase)'));
    table.append(head);
    const keys = [...new Set([...Object.keys(r.first_shot), ...Object.keys(r.phase)])];
    for (const k of keys) {
      const row = el('tr', { 'data-q': k }, el('td', {}, k), el('td', { 'data-w': 'first_shot' }, value(r.first_shot[k])),
        el('td', { 'data-w': 'phase' }, value(r.phase[k])));
      if (withIv) row.append(el('td', { class: 'iv' }, interval(r.phase[k])));
      table.append(row);
    }
    box.append(table);
    return box;
  }
  const sweepKeys = [...new Set(situations.flatMap((s) => Object.keys(s.sweep)))];
  const cols = hints.key || [];
  const table = el('table', { class: 'odds', 'data-method': method });
  const head = el('tr', {}, el('th', {}, 'situation'), ...sweepKeys.map((k) => el('th', {}, k)),
    ...cols.map((c) => el('th', {}, c.title)));
  table.append(head);
  for (const s of situations) {
    const r = s.results[method];
    table.append(el('tr', {}, el('td', {}, s.name), ...sweepKeys.map((k) => el('td', {}, s.sweep[k] ?? '')),
      ...cols.map((c) => el('td', {}, value((c.run ? r.phase : r.first_shot)[c.quantity])))));
  }
  box.append(el('p', { class: 'caption' }, `${situations.length} situations`), table);
  return box;
}

// ---------------------------------------------------------------------------------------------
// Charts, drawn as SVG from the module's JSON

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function rangeChart(points, current, label) {
  const W = 600, H = 250, L = 46, R = 12, T = 12, B = 34;
  const xs = points.map((p) => p.range);
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  const top = Math.max(...points.flatMap((p) => [p.first, p.phase]));
  const ymax = top > 0.5 ? 1 : top > 0.2 ? 0.5 : top > 0.1 ? 0.2 : top > 0.05 ? 0.1 : 0.05;
  const X = (v) => L + (W - L - R) * (x1 === x0 ? 0.5 : (v - x0) / (x1 - x0));
  const Y = (v) => T + (H - T - B) * (1 - v / ymax);
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${label} by range` });
  for (let i = 0; i <= 5; ++i) {
    const v = (ymax * i) / 5;
    s.append(svg('line', { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: '#e3e7ea' }));
    s.append(svg('text', { x: L - 4, y: Y(v) + 4, 'text-anchor': 'end' }, percent(v)));
  }
  for (const r of xs) if (r % 2 === 0 || xs.length < 16)
    s.append(svg('text', { x: X(r), y: H - B + 14, 'text-anchor': 'middle' }, String(r)));
  s.append(svg('text', { x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle' }, 'range (hexes)'));
  if (current !== undefined && current >= x0 && current <= x1)
    s.append(svg('line', { x1: X(current), x2: X(current), y1: T, y2: H - B, stroke: '#c08a1e', 'stroke-dasharray': '3 3' }));
  for (const [key, color, dash] of [['first', '#8aa9c4', '5 4'], ['phase', '#2b5f8a', '']]) {
    const d = points.map((p, i) => `${i ? 'L' : 'M'}${X(p.range).toFixed(1)},${Y(p[key]).toFixed(1)}`).join('');
    s.append(svg('path', { d, fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': dash }));
    for (const p of points) {
      const c = svg('circle', { cx: X(p.range), cy: Y(p[key]), r: 2.5, fill: color });
      c.append(svg('title', {}, `${p.range} hexes: ${percent(p[key])} (${key === 'first' ? 'first shot' : 'phase'})`));
      s.append(c);
    }
  }
  s.append(svg('text', { x: W - R, y: T + 10, 'text-anchor': 'end', fill: '#2b5f8a' }, `— phase   - - first shot`));
  return s;
}

function barsChart(bars) {
  const W = 600, row = 20, L = 170, H = bars.length * row + 6;
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'outcomes' });
  bars.forEach(([name, p], i) => {
    const y = 3 + i * row;
    s.append(svg('text', { x: L - 6, y: y + 13, 'text-anchor': 'end' }, name));
    s.append(svg('rect', { x: L, y: y + 2, width: Math.max(0.5, (W - L - 70) * p), height: row - 6, fill: '#2b5f8a' }));
    s.append(svg('text', { x: L + (W - L - 70) * p + 5, y: y + 13 }, percent(p)));
  });
  return s;
}

// ---------------------------------------------------------------------------------------------
// Computing: every change recomputes at once; what is on screen is marked until it is current.

let pending = false;
function changed() {
  markStale('recomputing…');
  if (!pending) {
    pending = true;
    setTimeout(() => { pending = false; recompute(); }, 0);
  }
}

function markStale(why) {
  for (const id of ['odds', 'compare', 'range-chart', 'outcomes', 'explain', 'headline']) $(id).classList.add('stale');
  if (!$('headline').hidden) $('headline').textContent = why;
  const status = $('status');
  status.className = 'status stale';
  status.textContent = why;
  if (last && $('mc-result').dataset.text !== textOf(option())) $('mc-result').classList.add('stale');
}

function call(fn, ...args) {
  const out = fn(...args);
  return out.startsWith('{"error"') ? { error: JSON.parse(out).error } : out;
}

function clearErrors() {
  for (const f of document.querySelectorAll('.field.bad')) {
    f.classList.remove('bad');
    f.querySelector('.msg').textContent = '';
  }
  $('input-error').hidden = true;
}

// A fight over the exact engine's limit: the command line's advice, said the page's way (the
// Monte Carlo button runs it in the worker). Every other message is the command line's.
function pageAdvice(message) {
  return message.replace(/: run it with --method mc, or --method auto \(Monte Carlo above that\)$/,
    ': run it with the Monte Carlo button below');
}

// "FILE:LINE: key: what" — shown next to the field of that key, and with the TOML line.
function showError(message, text) {
  clearErrors();
  const box = $('input-error');
  const m = /^(?:[^\n]*?):(\d+): ([A-Za-z0-9_."-]+): /.exec(message);
  let shown = message;
  if (m) {
    const line = Number(m[1]);
    const source = text.split('\n')[line - 1];
    if (source !== undefined) shown += `\n${String(line).padStart(4)} | ${source}`;
    const key = m[2];
    const fields = [...document.querySelectorAll('.field[data-key]')].filter((f) =>
      f.dataset.key === key || key.startsWith(f.dataset.key + '.') || f.dataset.key.startsWith(key + '.'));
    if (option().mode === 'form')
      for (const f of fields) {
        f.classList.add('bad');
        f.querySelector('.msg').textContent = message.slice(m[0].length);
        const d = f.closest('details'); if (d) d.open = true;
      }
  }
  box.textContent = shown;
  box.hidden = false;
}

// First the odds table (what a change is for), then, a task later, what depends on it (explain,
// the range sweep, the outcome bars, the comparison), each greyed until it is drawn. A newer
// change cancels the second half of an older one.
let generation = 0;
function recompute() {
  if (!salvo) return;
  const gen = ++generation;
  const opt = option();
  const text = textOf(opt);
  if (opt.mode === 'form') $('toml').value = text;
  const name = opt.name;
  const t0 = performance.now();
  const oddsText = call(salvo.odds, text, JSON.stringify({ name, method: 'exact' }));
  if (oddsText.error) {
    showError(pageAdvice(oddsText.error), text);
    markStale('error: the tables below are not for this situation');
    $('status').className = 'status error';
    last = null;
    saveHash();
    return;
  }
  clearErrors();
  const odds = JSON.parse(oddsText);
  const hints = JSON.parse(salvo.hints(text, JSON.stringify({ name })));
  const ms = performance.now() - t0;
  last = { text, name, oddsText, odds, hints };
  $('odds').replaceChildren(oddsTables(odds, hints, 'exact'));
  for (const id of ['odds', 'headline']) $(id).classList.remove('stale');
  drawHeadline(odds, hints);
  const status = $('status');
  status.className = 'status';
  status.textContent = `exact · ${odds.situations.length} situation${odds.situations.length > 1 ? 's' : ''} · ${ms.toFixed(1)} ms · ${odds.rules_data.version}`;
  status.dataset.ms = ms.toFixed(3);
  $('mc-result').classList.toggle('stale', $('mc-result').dataset.text !== undefined && $('mc-result').dataset.text !== text);
  saveHash();
  // For tests and bench/web_page.mjs: the time to the table, and when the first one was drawn.
  document.body.dataset.tableMs = (performance.now() - t0).toFixed(3);
  if (!document.body.dataset.firstTableMs) document.body.dataset.firstTableMs = performance.now().toFixed(1);

  setTimeout(() => {
    if (gen !== generation) return;
    const t1 = performance.now();
    // explain compiles the situation again: while its section is closed it is not computed (a
    // large fight takes seconds to compile).
    $('explain').textContent = $('explain-box').open ? salvo.explain(text, JSON.stringify({ name })) : '';
    drawRange(text, name, odds, hints);
    drawOutcomes(odds);
    drawCompare(hints);
    for (const id of ['range-chart', 'outcomes', 'explain']) $(id).classList.remove('stale');
    // For tests and bench/web_page.mjs: recomputations finished, and the last one's time.
    document.body.dataset.recomputeMs = (performance.now() - t1 + Number(document.body.dataset.tableMs)).toFixed(3);
    document.body.dataset.ready = String(Number(document.body.dataset.ready || 0) + 1);
  }, 0);
}

// The headline quantity of the first situation, for the bar a phone keeps in view.
function drawHeadline(odds, hints) {
  const r = odds.situations[0].results.exact;
  const q = hints.headline;
  const bar = $('headline');
  bar.hidden = !(r && q && r.phase[q]);
  if (bar.hidden) return;
  bar.textContent = `${q}: ${value(r.first_shot[q])} ${hints.first_window} · ${value(r.phase[q])} ${hints.run_window}` +
    (odds.situations.length > 1 ? ` (1 of ${odds.situations.length})` : '') + '  ↓';
}

// P(headline) by range: the situation swept over fire.range by the module.
function drawRange(text, name, odds, hints) {
  const box = $('range-chart');
  const q = hints.headline;
  $('chart-quantity').textContent = q ? q.replace(/^p_/, '') : 'kill';
  const plain = odds.situations.length === 1 && hints.ruleset === 'asl' && !/^\s*\[sweep\]/m.test(text);
  if (!plain || !q) {
    box.replaceChildren(el('p', { class: 'muted' }, 'For one ASL situation without a sweep.'));
    return;
  }
  const sweep = `${text}\n[sweep]\n"fire.range" = [${RANGES.join(', ')}]\n`;
  let points = [];
  const swept = call(salvo.odds, sweep, JSON.stringify({ name, method: 'exact' }));
  const point = (s) => ({ range: Number(s.sweep['fire.range']), first: s.results.exact.first_shot[q]?.p ?? 0, phase: s.results.exact.phase[q]?.p ?? 0 });
  if (!swept.error) {
    points = JSON.parse(swept).situations.map(point);
  } else if (!swept.error.includes('(sweep point:')) {
    box.replaceChildren(el('p', { class: 'muted' }, `No range chart: ${swept.error}`));
    return;
  } else {
    // Some ranges are refused (a mortar's minimum, Canister's two hexes): each range alone.
    for (const r of RANGES) {
      const one = call(salvo.odds, `${text}\n[sweep]\n"fire.range" = [${r}]\n`, JSON.stringify({ name, method: 'exact' }));
      if (!one.error) points.push(point(JSON.parse(one).situations[0]));
    }
  }
  if (!points.length) { box.replaceChildren(el('p', { class: 'muted' }, 'No range is allowed here.')); return; }
  const current = Number(odds.situations[0].sweep['fire.range'] ?? NaN);
  box.replaceChildren(rangeChart(points, Number.isNaN(current) ? rangeOf(text) : current, q));
}
function rangeOf(text) {
  const m = /^\s*range\s*=\s*(\d+)/m.exec(text.split(/^\s*\[fire\]/m)[1] || '');
  return m ? Number(m[1]) : 6;
}

function drawOutcomes(odds) {
  const s = odds.situations[0];
  const r = s.results.exact || s.results.mc;
  const bars = Object.entries(r.phase).filter(([k]) => k.startsWith('outcome_')).map(([k, v]) => [k.slice(8), v.p]);
  $('outcomes').replaceChildren(bars.length ? barsChart(bars) : el('p', { class: 'muted' }, 'no outcomes for this situation'));
  if (odds.situations.length > 1) $('outcomes').append(el('p', { class: 'caption' }, `the first of ${odds.situations.length} situations: ${s.name}`));
}

function drawCompare(hints) {
  const box = $('compare');
  box.hidden = !state.compare;
  if (!state.compare) return;
  const a = state.options.a, b = state.options.b;
  const out = call(salvo.compare, JSON.stringify([{ name: 'A.toml', text: textOf(a) }, { name: 'B.toml', text: textOf(b) }]), JSON.stringify({ method: 'exact' }));
  if (out.error) {
    box.replaceChildren(el('h2', {}, 'A against B'), el('div', { class: 'error' }, out.error));
    box.classList.remove('stale');
    return;
  }
  const j = JSON.parse(out);
  const cmp = j.comparisons[0];
  const keys = hints.key || [];
  const table = el('table', { class: 'odds', id: 'compare-table' });
  table.append(el('tr', {}, ...['window', 'quantity', 'A', 'B', 'A − B (points)', 'P(A better)', 'P(B better)'].map((t) => el('th', {}, t))));
  for (const q of cmp.quantities) {
    if (!keys.some((k) => k.quantity === q.name && k.run === (q.window === 'phase'))) continue;
    // compare's JSON gives every quantity as "p" (a mean too)
    const p = q.name.startsWith('p_');
    const num = (e) => (p ? percent(e.p) : e.p.toFixed(3));
    const diff = p ? (100 * q.diff.p).toFixed(1) : q.diff.p.toFixed(3);
    table.append(el('tr', { 'data-q': q.name, 'data-w': q.window }, el('td', {}, q.window === 'phase' ? hints.run_window : hints.first_window),
      el('td', {}, q.name), el('td', {}, num(q.a)), el('td', {}, num(q.b)), el('td', {}, q.diff.p >= 0 ? '+' + diff : diff),
      el('td', {}, q.p_a_better === null ? '-' : percent(q.p_a_better)), el('td', {}, q.p_b_better === null ? '-' : percent(q.p_b_better))));
  }
  box.replaceChildren(el('h2', {}, `A (${cmp.a.name}) against B (${cmp.b.name})`), table,
    el('p', { class: 'caption' }, `salvo compare, exact: P(A better) is the chance that A's ${hints.run_window || 'phase'} does better` +
      `${hints.better_for ? ' for ' + hints.better_for : ''} than B's, each on its own dice.`));
  box.classList.remove('stale');
}

// ---------------------------------------------------------------------------------------------
// Monte Carlo in a worker

let worker = null;
function makeWorker() {
  // The module's factory and the worker's main, as one script: no second file to fetch, so
  // file:// works as well as http.
  const src = `var _scriptDir = undefined;\nvar createSalvo = ${createSalvo.toString()};\n(${salvoWorkerMain.toString()})();\n`;
  return new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
}

function runMc() {
  const opt = option();
  const text = textOf(opt);
  if (worker) worker.terminate();
  worker = makeWorker();
  const options = { name: opt.name, method: 'mc', trials: $('mc-trials').value.trim(), seed: $('mc-seed').value.trim() };
  $('mc-run').disabled = true;
  $('mc-stop').disabled = false;
  $('mc-progress').value = 0;
  $('mc-status').textContent = 'starting…';
  $('mc-result').classList.add('stale');
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'progress') {
      $('mc-progress').value = m.planned ? m.done / m.planned : 0;
      $('mc-status').textContent = `${m.done.toLocaleString('en')} of ${m.planned.toLocaleString('en')} trials`;
      return;
    }
    $('mc-run').disabled = false;
    $('mc-stop').disabled = true;
    const box = $('mc-result');
    box.dataset.text = text;
    box.dataset.json = m.json;
    box.classList.toggle('stale', text !== textOf(option()));
    if (m.json.startsWith('{"error"')) {
      box.replaceChildren(el('div', { class: 'error' }, JSON.parse(m.json).error));
      $('mc-status').textContent = 'error';
      return;
    }
    const odds = JSON.parse(m.json);
    const run = odds.situations.length ? odds.situations[odds.situations.length - 1].results.mc : null;
    const head = m.stopped
      ? el('p', { class: 'banner' }, `Stopped: ${odds.situations.length} of ${odds.situations_total} situation(s), ${run ? run.trials.toLocaleString('en') : 0} trials in the last; intervals are those of the trials run (as salvo odds writes a run it was told to stop).`)
      : el('p', { class: 'caption' }, `Monte Carlo, seed ${odds.seed}, ${odds.trials.toLocaleString('en')} trials, ${(m.ms / 1000).toFixed(1)} s: salvo odds --method mc --seed ${odds.seed} --trials ${odds.trials} gives these numbers bit for bit.`);
    box.replaceChildren(head, odds.situations.length ? oddsTables(odds, last ? last.hints : {}, 'mc') : '');
    $('mc-status').textContent = m.stopped ? 'stopped' : 'done';
    document.body.dataset.mc = m.stopped ? 'stopped' : 'done';
  };
  worker.postMessage({ type: 'run', toml: text, options, files: state.files });
}

// ---------------------------------------------------------------------------------------------
// Files, examples, downloads, share links

function putFile(path, text) {
  state.files[path] = text;
  const dir = path.split('/').slice(0, -1).join('/');
  if (dir) salvo.FS.mkdirTree('/' + dir);
  salvo.FS.writeFile('/' + path, text);
  const list = $('files');
  list.replaceChildren(...Object.keys(state.files).sort().map((p) => el('li', {}, p)));
}

function loadText(name, text) {
  const opt = option();
  opt.mode = 'toml';
  opt.toml = text;
  opt.name = name;
  showOption();
  changed();
}

function download(name, text, type) {
  const a = el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

function base64url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromBase64url(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}
// The fragment: "#z=" deflated JSON of the options (or "#j=" where the browser has no
// CompressionStream), so a link restores the form, or the text, exactly.
async function encodeState() {
  const keep = (o) => o && (o.mode === 'form' ? { mode: 'form', form: o.form, name: o.name } : { mode: 'toml', toml: o.toml, name: o.name });
  const json = JSON.stringify({ v: 1, edit: state.edit, a: keep(state.options.a), b: state.compare ? keep(state.options.b) : null,
    mc: { trials: $('mc-trials').value, seed: $('mc-seed').value } });
  const bytes = new TextEncoder().encode(json);
  if (typeof CompressionStream === 'function') return 'z=' + base64url(await pipe(bytes, new CompressionStream('deflate')));
  return 'j=' + base64url(bytes);
}
async function decodeState(hash) {
  const [kind, data] = [hash.slice(0, 2), hash.slice(2)];
  let bytes = fromBase64url(data);
  if (kind === 'z=') bytes = await pipe(bytes, new DecompressionStream('deflate'));
  else if (kind !== 'j=') throw new Error('unknown link');
  const s = JSON.parse(new TextDecoder().decode(bytes));
  const take = (o) => o && { mode: o.mode, form: o.form || {}, toml: o.toml || '', name: o.name || 'situation.toml' };
  state.options.a = take(s.a);
  state.options.b = take(s.b);
  state.compare = !!s.b;
  state.edit = state.compare && s.edit === 'b' ? 'b' : 'a';
  if (s.mc) { $('mc-trials').value = s.mc.trials; $('mc-seed').value = s.mc.seed; }
}
let hashTimer = null;
function saveHash() {
  clearTimeout(hashTimer);
  document.body.dataset.hashPending = '1';
  hashTimer = setTimeout(async () => {
    const h = await encodeState();
    history.replaceState(null, '', '#' + h);
    document.body.dataset.hash = h;
    delete document.body.dataset.hashPending;
  }, 50);
}

// ---------------------------------------------------------------------------------------------

function wire() {
  $('tab-form').onclick = () => {
    if (option().mode === 'form') { state.view = 'form'; showOption(); return; }
    if (confirm('Back to the form? Its situation replaces this text.')) $('to-form').click();
  };
  $('tab-toml').onclick = () => { state.view = 'toml'; showOption(); };
  $('to-form').onclick = () => { const o = option(); o.mode = 'form'; o.name = 'situation.toml'; state.view = 'form'; showOption(); changed(); };
  $('toml').addEventListener('input', () => { const o = option(); o.mode = 'toml'; o.toml = $('toml').value; changed(); });
  $('compare-on').onchange = () => {
    state.compare = $('compare-on').checked;
    if (state.compare && !state.options.b) state.options.b = JSON.parse(JSON.stringify(state.options.a));
    if (!state.compare) state.edit = 'a';
    showOption();
    changed();
  };
  $('edit-a').onclick = () => { state.edit = 'a'; showOption(); changed(); };
  $('edit-b').onclick = () => { state.edit = 'b'; showOption(); changed(); };
  const examples = $('example');
  for (const path of Object.keys(SALVO_EXAMPLES.situations)) examples.append(new Option(path.replace(/^examples\//, ''), path));
  examples.onchange = () => { if (examples.value) loadText(examples.value, SALVO_EXAMPLES.situations[examples.value]); };
  $('upload').onchange = async () => {
    let situation = null;
    for (const f of $('upload').files) {
      const text = await f.text();
      if (/^\s*ruleset\s*=/m.test(text) && !situation) situation = [f.name, text];
      else putFile(f.name, text);
    }
    $('upload').value = '';
    if (situation) loadText(...situation); else changed();
  };
  $('dl-toml').onclick = () => download(option().name.split('/').pop(), textOf(option()), 'application/toml');
  $('dl-json').onclick = () => last && download('odds.json', last.oddsText, 'application/json');
  $('dl-csv').onclick = () => {
    if (!last) return;
    const csv = call(salvo.odds, last.text, JSON.stringify({ name: last.name, method: 'exact', format: 'csv' }));
    if (!csv.error) download('odds.csv', csv, 'text/csv');
  };
  $('share').onclick = async () => {
    const url = location.href.split('#')[0] + '#' + await encodeState();
    try { await navigator.clipboard.writeText(url); $('share').textContent = 'link copied'; }
    catch { prompt('The link to this situation:', url); }
  };
  $('explain-box').addEventListener('toggle', () => {
    if ($('explain-box').open && last && !$('explain').textContent) $('explain').textContent = salvo.explain(last.text, JSON.stringify({ name: last.name }));
  });
  $('mc-run').onclick = runMc;
  $('mc-stop').onclick = () => { if (worker) worker.postMessage({ type: 'stop' }); };
}

async function main() {
  buildForm();
  wire();
  if (location.hash.length > 3) {
    try { await decodeState(location.hash.slice(1)); }
    catch (e) { $('input-error').textContent = `This link could not be read (${e.message}); the default situation is shown.`; $('input-error').hidden = false; }
  }
  showOption();
  salvo = await createSalvo();
  for (const [path, text] of Object.entries(SALVO_EXAMPLES.files)) putFile(path, text);
  $('version').textContent = salvo.version();
  $('mc-run').disabled = false;
  recompute();
}
main();
