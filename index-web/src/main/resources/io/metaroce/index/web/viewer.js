// MetaRoCE viewer: the page over the JSON API (FlowViewer, ViewerApi). Plain JS, nothing fetched from elsewhere.
// Every value from the index (a capture path, a rule text, a flow id) is data a shared index's writer chose: the DOM
// is built with createElement and textContent only, never from HTML text.
'use strict';

// The Sessions columns without a choice of the user's (the column chooser keeps one in localStorage).
const DEFAULT_COLUMNS = ['flow', 'capture_path', 'first_ns', 'packets', 'retransmitted_packets', 'naks', 'cnps', 'ce_marks'];
const COLUMNS_KEY = 'metaroce.viewer.columns';
// Every field of the index (/api/fields), by name: type, group, sortable.
let FIELDS = new Map();

function columns() {
  let names = DEFAULT_COLUMNS;
  try {
    const saved = JSON.parse(localStorage.getItem(COLUMNS_KEY) || 'null');
    if (Array.isArray(saved) && saved.length > 0) names = saved.filter((n) => FIELDS.size === 0 || FIELDS.has(n));
  } catch (e) { /* a damaged entry: the defaults */ }
  if (names.length === 0) names = DEFAULT_COLUMNS;
  return names.map((key) => {
    const f = FIELDS.get(key) || {type: 'keyword', sortable: false};
    return {key, label: key === 'capture_path' ? 'capture' : key.replace(/_ns$/, ''), sort: f.sortable ? key : null,
      num: f.type === 'long' || f.type === 'double', show: key === 'capture_path' ? basename : null};
  });
}

const COUNTERS = ['packets', 'bytes', 'payload_bytes', 'data_packets', 'retransmitted_packets', 'naks', 'cnps',
  'ce_marks', 'timeouts', 'out_of_order', 'duplicates', 'psn_gaps', 'network_losses', 'capture_gaps'];
const PAGE = 50;
const QP_FIELDS = new Set(['dest_qp', 'src_qps']);

// open: the root id of the flow whose document is shown (in the URL too, so a shared link shows that flow).
// date/startTime/stopTime: Arkime's time range (date: hours before the index's newest flow).
const state = {tab: 'sessions', q: '', sort: '', start: 0, by: '', from: 'src', to: 'dst', open: '', date: '', startTime: '',
  stopTime: '', field: 'src', n: '5', layout: 'force', minconn: '1', size: 'bytes'};
const TABS = ['sessions', 'spiview', 'spigraph', 'connections', 'files'];
const KEYS = ['tab', 'q', 'sort', 'start', 'by', 'from', 'to', 'open', 'date', 'startTime', 'stopTime', 'field', 'n', 'layout',
  'minconn', 'size'];
const DEFAULTS = {...state};
const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function basename(p) { const s = String(p); return s.substring(s.lastIndexOf('/') + 1); }

// Nanoseconds since 1970 (a JSON string beyond 2^53) as search prints them: UTC, microseconds.
function time(v) {
  const s = String(v);
  if (!/^\d+$/.test(s)) return s;
  const ns = BigInt(s), sec = ns / 1000000000n, frac = ns % 1000000000n;
  const iso = new Date(Number(sec) * 1000).toISOString();
  return iso.substring(0, 19) + '.' + frac.toString().padStart(9, '0').substring(0, 6) + 'Z';
}

function shown(field, v) {
  if (v === null || v === undefined) return '-';
  if (Array.isArray(v)) return v.map((x) => shown(field, x)).join(', ');
  if (QP_FIELDS.has(field) && typeof v === 'number') return '0x' + v.toString(16).padStart(6, '0');
  if (/_ns$/.test(field) && !/^latency\.|rtt_ns/.test(field)) return time(v);
  return String(v);
}

// ------------------------------------------------------------------ state in the URL (a postmortem shares it)

function readHash() {
  const p = new URLSearchParams(location.hash.substring(1));
  for (const k of KEYS) state[k] = p.get(k) || DEFAULTS[k];
  if (!TABS.includes(state.tab)) state.tab = 'sessions';
  state.start = Math.max(0, parseInt(p.get('start') || '0', 10) || 0);
}

function writeHash() {
  const p = new URLSearchParams();
  for (const k of KEYS) if (state[k] !== DEFAULTS[k]) p.set(k, state[k]);
  history.replaceState(null, '', '#' + p.toString());
}

// The time range as the API takes it (Arkime's names).
function when() {
  if (state.date === 'custom') return {startTime: state.startTime, stopTime: state.stopTime};
  return {date: state.date};
}

function query(extra) { return Object.assign({q: state.q}, when(), extra || {}); }

function link(path, params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== undefined && v !== null) u.set(k, v);
  return path + '?' + u;
}

function go(changes) {
  Object.assign(state, changes);
  writeHash();
  render();
}

function addTerm(term) {
  const q = state.q.trim();
  go({q: q === '' || q === '*:*' ? term : '(' + q + ') AND ' + term, start: 0, open: ''});
}

// ------------------------------------------------------------------ fetching

async function api(path, params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== '' && v !== undefined && v !== null) u.set(k, v);
  const r = await fetch(path + (u.toString() ? '?' + u : ''), {cache: 'no-store'});
  let body;
  try { body = await r.json(); } catch (e) { body = {error: 'the viewer answered ' + r.status + ' without JSON'}; }
  if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
  return body;
}

function showError(e) { $('error').textContent = e ? e.message : ''; }

async function render() {
  $('q').value = state.q;
  $('by').value = state.by;
  $('date').value = state.date;
  $('custom').hidden = state.date !== 'custom';
  $('startTime').value = state.startTime;
  $('stopTime').value = state.stopTime;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === state.tab);
  for (const s of document.querySelectorAll('section.tab')) s.hidden = s.id !== state.tab;
  try {
    if (state.tab === 'sessions') await sessions();
    else if (state.tab === 'spiview') await spiview();
    else if (state.tab === 'spigraph') await spigraph();
    else if (state.tab === 'connections') await connections();
    else await files();
    showError(null);
  } catch (e) {
    showError(e);
  }
}

// ------------------------------------------------------------------ Sessions

async function sessions() {
  const COLUMNS = columns();
  const r = await api('/api/sessions', query({sort: state.sort, start: state.start, length: PAGE}));
  const head = $('flows').tHead, body = $('flows').tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  const tr = el('tr');
  const [sortField, sortDir] = r.sort.split(':');
  for (const c of COLUMNS) {
    const th = el('th', c.label, (c.num ? 'num ' : '') + (c.sort ? 'sortable' : ''));
    if (c.sort && c.sort === sortField) {
      th.classList.add('sorted');
      if (sortDir === 'asc') th.classList.add('asc');
    }
    if (c.sort) th.addEventListener('click', () => {
      const desc = (FIELDS.get(c.key) || {}).type !== 'time';   // counters most first, times earliest first
      const next = c.sort === sortField ? (sortDir === 'desc' ? 'asc' : 'desc') : (desc ? 'desc' : 'asc');
      go({sort: c.sort + ':' + next, start: 0});
    });
    tr.append(th);
  }
  head.append(tr);
  for (const f of r.flows) {
    const row = el('tr', null, 'flow');
    for (const c of COLUMNS) row.append(el('td', c.show ? c.show(f[c.key]) : shown(c.key, f[c.key]), c.num ? 'num' : ''));
    row.addEventListener('click', () => toggleDetail(row, f, COLUMNS.length));
    body.append(row);
    if (f.root_id === state.open) toggleDetail(row, f, COLUMNS.length);
  }
  const last = r.start + r.flows.length;
  $('count').textContent = r.total === 0 ? 'no flow matches'
    : (r.start + 1) + '-' + last + ' of ' + r.total + ' flow' + (r.total === 1 ? '' : 's');
  $('prev').disabled = r.start === 0;
  $('next').disabled = last >= r.total;
  $('range').textContent = r.start_ns || r.stop_ns
    ? 'flows active from ' + (r.start_ns ? time(r.start_ns) : 'the start') + ' to ' + (r.stop_ns ? time(r.stop_ns) : 'the end') : '';
  $('csv').href = link('/api/sessions.csv', query({sort: state.sort, fields: COLUMNS.map((c) => c.key).join(',')}));
  $('csv').setAttribute('download', 'metaroce-sessions.csv');
  pcapLink();
}

function pcapLink() {
  $('pcapAll').href = link('/api/sessions.pcap', query({q: state.q.trim() || '*:*', n: $('limit').value}));
  $('pcapAll').setAttribute('download', 'metaroce-flows.pcapng');
}

async function toggleDetail(row, f, width) {
  const open = row.nextSibling;
  if (open && open.classList && open.classList.contains('detail')) {
    open.remove();
    if (state.open === f.root_id) { state.open = ''; writeHash(); }
    return;
  }
  state.open = f.root_id;
  writeHash();
  const tr = el('tr', null, 'detail'), td = el('td');
  td.colSpan = width;
  tr.append(td);
  row.after(tr);
  try {
    const d = await api('/api/session/' + encodeURIComponent(f.root_id));
    const links = el('div', null, 'links');
    const pcap = el('a', 'Download PCAP', 'button');
    pcap.href = '/api/sessions.pcap?ids=' + encodeURIComponent(f.root_id);
    pcap.setAttribute('download', '');
    const cmd = el('input');
    cmd.readOnly = true;
    cmd.value = d.gui;
    cmd.title = 'open this flow in the GUI';
    const copy = el('button', 'Copy');
    copy.type = 'button';
    copy.addEventListener('click', () => copyText(cmd));
    links.append(pcap, el('span', 'GUI:'), cmd, copy);
    const grid = el('div', null, 'fields');
    for (const [k, v] of Object.entries(d.flow)) {
      const cell = el('div');
      cell.append(el('span', k, 'k'), el('span', shown(k, v), 'v'));
      grid.append(cell);
    }
    td.append(links, grid);
  } catch (e) {
    td.append(el('span', e.message));
  }
}

function copyText(input) {
  input.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value);
  else document.execCommand('copy');   // plain http from another host: no Clipboard API there
}

// The column chooser: every field of the index, grouped, the choice kept in this browser.
function chooser() {
  const box = $('columnChooser');
  box.replaceChildren();
  const chosen = new Set(columns().map((c) => c.key));
  const groups = new Map();
  for (const f of FIELDS.values()) {
    if (!groups.has(f.group)) groups.set(f.group, []);
    groups.get(f.group).push(f);
  }
  for (const [group, fields] of groups) {
    const set = el('fieldset');
    set.append(el('legend', group));
    for (const f of fields) {
      const label = el('label'), box2 = el('input');
      box2.type = 'checkbox';
      box2.checked = chosen.has(f.name);
      box2.addEventListener('change', () => {
        const now = columns().map((c) => c.key).filter((n) => n !== f.name);
        if (box2.checked) now.push(f.name);
        localStorage.setItem(COLUMNS_KEY, JSON.stringify(now));
        render();
      });
      label.append(box2, el('span', f.name));
      set.append(label);
    }
    box.append(set);
  }
  const reset = el('button', 'Default columns');
  reset.type = 'button';
  reset.addEventListener('click', () => { localStorage.removeItem(COLUMNS_KEY); chooser(); render(); });
  box.append(reset);
}

// ------------------------------------------------------------------ SPI View

async function spiview() {
  const r = await api('/api/spiview', query({by: state.by}));
  const box = $('facets');
  box.replaceChildren();
  for (const f of r.facets) {
    const card = el('div', null, 'facet');
    const h = el('h3', f.top + '  (by ' + f.by + ')');
    const unique = el('a', 'unique.txt', 'export');
    unique.href = link('/api/unique.txt', query({exp: f.top, by: state.by, counts: 1}));
    unique.setAttribute('download', f.top + '-unique.txt');
    unique.title = 'every value of ' + f.top + ' with its flows, one a line';
    h.append(unique);
    card.append(h);
    const max = Math.max(1, ...f.values.map((v) => v[f.by]));
    if (f.values.length === 0) card.append(el('div', 'no values', 'empty'));
    for (const v of f.values) {
      const line = el('div', null, 'value');
      const track = el('span', null, 'track'), bar = el('span', null, 'bar');
      bar.style.width = Math.max(2, Math.round(60 * v[f.by] / max)) + 'px';
      track.append(bar);
      line.append(track, el('span', shown(f.top, v[f.top]), 'label'), el('span', v[f.by] + ' \u00b7 ' + v.flows + ' flows', 'n'));
      line.title = 'add ' + v.term;
      line.addEventListener('click', () => addTerm(v.term));
      card.append(line);
    }
    box.append(card);
  }
}

// ------------------------------------------------------------------ Connections

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

async function connections() {
  const r = await api('/api/connections', query({by: state.by, from: state.from, to: state.to, n: 60}));
  $('from').value = state.from;
  $('to').value = state.to;
  $('layout').value = state.layout;
  $('minConn').value = state.minconn;
  $('nodeSize').value = state.size;
  const [from, to] = r.connections, by = r.by, size = state.size;
  const nodes = new Map();
  const node = (value, field, term, p) => {
    const key = String(value);
    let n = nodes.get(key);
    if (!n) { n = {key, label: shown(field, value), terms: new Set(), flows: 0, sum: 0, size: 0, degree: 0}; nodes.set(key, n); }
    n.terms.add(term);
    n.flows += p.flows;
    n.sum += p[by];
    n.size += size === 'flows' ? p.flows : p[size];
    n.degree++;
    return n;
  };
  let edges = r.pairs.map((p) => ({a: node(p[from], from, p.from_term, p), b: node(p[to], to, p.to_term, p), p}));
  // "min connections": a node with fewer pairs goes, and its pairs with it.
  const min = Math.max(1, parseInt(state.minconn, 10) || 1);
  edges = edges.filter((e) => e.a.degree >= min && e.b.degree >= min);
  const list = [...new Set(edges.flatMap((e) => [e.a, e.b]))];
  const box = $('graph');
  box.replaceChildren();
  if (edges.length === 0) { box.append(el('div', r.pairs.length === 0 ? 'no pairs match' : 'no node has ' + min + ' connections', 'empty')); return; }
  const W = 960, H = 620;
  if (state.layout === 'circle') circle(list, W, H); else force(list, edges, W, H);
  const root = svg('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img'});
  const maxEdge = Math.max(1, ...edges.map((e) => e.p[by])), maxNode = Math.max(1, ...list.map((n) => n.size));
  for (const e of edges) {
    e.line = svg('line', {'stroke-width': (1 + 11 * e.p[by] / maxEdge).toFixed(1)});
    const t = svg('title');
    t.textContent = e.a.label + ' \u2192 ' + e.b.label + '\nflows: ' + e.p.flows + '\n' + by + ': ' + e.p[by];
    e.line.append(t);
    root.append(e.line);
  }
  for (const n of list) {
    n.circle = svg('circle', {r: (4 + 12 * Math.sqrt(n.size / maxNode)).toFixed(1)});
    const t = svg('title');
    t.textContent = n.label + '\nflows: ' + n.flows + '\n' + by + ': ' + n.sum + (size !== by && size !== 'flows' ? '\n' + size + ': ' + n.size : '')
      + '\nconnections: ' + n.degree + '\ndrag: move it; click: filter on it';
    n.circle.append(t);
    const terms = [...n.terms];
    drag(root, n, () => addTerm(terms.length === 1 ? terms[0] : '(' + terms.join(' OR ') + ')'), () => place(n, edges, W));
    root.append(n.circle);
    n.text = svg('text');
    n.text.textContent = n.label;
    root.append(n.text);
  }
  for (const n of list) place(n, edges, W);
  box.append(root);
}

// Every node on one ring, in the order the heaviest pairs name them (deterministic, no overlap).
function circle(list, W, H) {
  const R = Math.min(W, H) / 2 - 90;
  list.forEach((n, i) => {
    const a = 2 * Math.PI * i / list.length - Math.PI / 2;
    n.x = W / 2 + R * Math.cos(a);
    n.y = H / 2 + R * Math.sin(a);
  });
}

// A force layout (Fruchterman-Reingold): nodes repel, pairs pull as springs, a weak pull to the middle keeps
// islands in view; a fixed number of rounds with a cooling step, from the circle (so the same answer draws the same).
function force(list, edges, W, H) {
  circle(list, W, H);
  const k = Math.sqrt((W - 160) * (H - 80) / Math.max(1, list.length)) * 0.75;
  let step = W / 10;
  for (let round = 0; round < 300; round++) {
    for (const n of list) { n.dx = 0; n.dy = 0; }
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i], b = list[j];
        let dx = a.x - b.x, dy = a.y - b.y, d = Math.hypot(dx, dy);
        if (d < 0.01) { dx = 0.01 * (i - j); dy = 0.01; d = Math.hypot(dx, dy); }
        const f = k * k / d;
        a.dx += dx / d * f; a.dy += dy / d * f;
        b.dx -= dx / d * f; b.dy -= dy / d * f;
      }
    }
    for (const e of edges) {
      const dx = e.a.x - e.b.x, dy = e.a.y - e.b.y, d = Math.max(0.01, Math.hypot(dx, dy)), f = d * d / k;
      e.a.dx -= dx / d * f; e.a.dy -= dy / d * f;
      e.b.dx += dx / d * f; e.b.dy += dy / d * f;
    }
    for (const n of list) {
      n.dx += (W / 2 - n.x) * 0.05 * k / 10;
      n.dy += (H / 2 - n.y) * 0.05 * k / 10;
      const d = Math.max(0.01, Math.hypot(n.dx, n.dy)), move = Math.min(d, step);
      n.x += n.dx / d * move;
      n.y += n.dy / d * move;
    }
    step = Math.max(1, step * 0.985);
  }
  // Fit the drawing into the box, room left for the labels.
  const xs = list.map((n) => n.x), ys = list.map((n) => n.y);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  const sx = (W - 240) / Math.max(1, x1 - x0), sy = (H - 60) / Math.max(1, y1 - y0), s = Math.min(sx, sy, 3);
  for (const n of list) {
    n.x = W / 2 + (n.x - (x0 + x1) / 2) * s;
    n.y = H / 2 + (n.y - (y0 + y1) / 2) * s;
  }
}

// Moves a node's circle, label and the ends of its lines to its x, y.
function place(n, edges, W) {
  n.circle.setAttribute('cx', n.x.toFixed(1));
  n.circle.setAttribute('cy', n.y.toFixed(1));
  const right = n.x >= W / 2;
  n.text.setAttribute('x', (n.x + (right ? 16 : -16)).toFixed(1));
  n.text.setAttribute('y', (n.y + 4).toFixed(1));
  n.text.setAttribute('text-anchor', right ? 'start' : 'end');
  for (const e of edges) {
    if (e.a === n) { e.line.setAttribute('x1', n.x.toFixed(1)); e.line.setAttribute('y1', n.y.toFixed(1)); }
    if (e.b === n) { e.line.setAttribute('x2', n.x.toFixed(1)); e.line.setAttribute('y2', n.y.toFixed(1)); }
  }
}

// Dragging a node moves it; a press released where it began is a click.
function drag(root, n, click, moved) {
  n.circle.addEventListener('pointerdown', (down) => {
    down.preventDefault();
    n.circle.setPointerCapture(down.pointerId);
    const m = root.getScreenCTM().inverse(), x0 = down.clientX, y0 = down.clientY;
    let far = false;
    const move = (ev) => {
      far = far || Math.hypot(ev.clientX - x0, ev.clientY - y0) > 3;
      if (!far) return;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
      n.x = p.x;
      n.y = p.y;
      moved();
    };
    const up = () => {
      n.circle.removeEventListener('pointermove', move);
      n.circle.removeEventListener('pointerup', up);
      if (!far) click();
    };
    n.circle.addEventListener('pointermove', move);
    n.circle.addEventListener('pointerup', up);
  });
}

// ------------------------------------------------------------------ SPI Graph

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

async function spigraph() {
  const select = $('graphField');
  select.value = state.field;
  $('graphN').value = state.n;
  const r = await api('/api/spigraph', query({field: state.field, by: state.by, n: state.n}));
  const key = state.by ? r.by + '_per_bucket' : 'flows_per_bucket', unit = state.by ? r.by : 'flows';
  const box = $('spiplot');
  box.replaceChildren();
  if (r.series.length === 0) { box.append(el('div', 'no values', 'empty')); return; }
  const W = 960, H = 380, L = 70, R = 20, T = 16, B = 40, count = r.buckets.length;
  const max = Math.max(1, ...r.series.flatMap((s) => s[key]));
  const x = (i) => L + (count === 1 ? (W - L - R) / 2 : i * (W - L - R) / (count - 1));
  const y = (v) => T + (H - T - B) * (1 - v / max);
  const root = svg('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img'});
  // Axes: the counter's scale on the left, the buckets' start times below.
  for (let t = 0; t <= 4; t++) {
    const v = Math.round(max * t / 4), yy = y(v);
    root.append(svg('line', {x1: L, y1: yy, x2: W - R, y2: yy, class: 'grid'}));
    const label = svg('text', {x: L - 6, y: yy + 4, 'text-anchor': 'end'});
    label.textContent = String(v);
    root.append(label);
  }
  const ticks = Math.min(count, 6);
  for (let t = 0; t < ticks; t++) {
    const i = ticks === 1 ? 0 : Math.round(t * (count - 1) / (ticks - 1));
    const label = svg('text', {x: x(i), y: H - B + 16, 'text-anchor': t === 0 ? 'start' : t === ticks - 1 ? 'end' : 'middle'});
    label.textContent = time(r.buckets[i]).substring(11);
    root.append(label);
  }
  const day = svg('text', {x: L, y: H - 6});
  day.textContent = time(r.start_ns).substring(0, 10) + ' UTC, buckets of ' + duration(r.bucket_ns) + ' (' + unit + ')';
  root.append(day);
  const legend = el('div', null, 'legend');
  r.series.forEach((s, n) => {
    const color = PALETTE[n % PALETTE.length];
    const line = svg('polyline', {points: s[key].map((v, i) => x(i).toFixed(1) + ',' + y(v).toFixed(1)).join(' '), stroke: color});
    const t = svg('title');
    t.textContent = shown(r.field, s.value) + ': ' + s.flows + ' flows, ' + r.by + ' ' + s[r.by];
    line.append(t);
    root.append(line);
    s[key].forEach((v, i) => {
      if (v === 0) return;
      const dot = svg('circle', {cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, fill: color});
      const tt = svg('title');
      tt.textContent = shown(r.field, s.value) + ' at ' + time(r.buckets[i]) + ': ' + v + ' ' + unit;
      dot.append(tt);
      root.append(dot);
    });
    const item = el('span', null, 'item');
    const swatch = el('span', null, 'swatch');
    swatch.style.background = color;
    const name = r.field === 'capture_path' ? basename(s.value) : shown(r.field, s.value);
    item.append(swatch, el('span', name + '  ' + (state.by ? s[r.by] : s.flows)));
    item.title = 'add ' + s.term;
    item.addEventListener('click', () => addTerm(s.term));
    legend.append(item);
  });
  box.append(root, legend);
}

// A bucket width in words: 500 us, 2 s, 15 min.
function duration(ns) {
  const v = Number(ns);
  for (const [unit, size] of [['d', 864e11], ['h', 36e11], ['min', 6e10], ['s', 1e9], ['ms', 1e6], ['us', 1e3]])
    if (v >= size) return +(v / size).toFixed(3) + ' ' + unit;
  return v + ' ns';
}

// ------------------------------------------------------------------ Files

async function files() {
  const r = await api('/api/files');
  const table = $('captures'), head = table.tHead, body = table.tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  const tr = el('tr');
  for (const [h, num] of [['capture', false], ['format', false], ['size', true], ['flows', true], ['packets', true],
    ['first', false], ['last', false], ['indexed', false], ['', false]]) tr.append(el('th', h, num ? 'num' : ''));
  head.append(tr);
  for (const f of r.files) {
    const row = el('tr');
    row.append(el('td', f.capture_path), el('td', f.capture_format), el('td', f.capture_size, 'num'), el('td', f.flows, 'num'),
      el('td', f.packets, 'num'), el('td', shown('first_ns', f.capture_first_ns)), el('td', shown('last_ns', f.capture_last_ns)),
      el('td', shown('indexed_at_ns', f.indexed_at_ns)));
    const cell = el('td');
    const a = el('a', 'PCAP of the matches', 'button');
    const q = state.q.trim();
    a.href = link('/api/sessions.pcap', query({q: q === '' || q === '*:*' ? f.term : '(' + q + ') AND ' + f.term}));
    a.setAttribute('download', basename(f.capture_path).replace(/\.[^.]*$/, '') + '-matches.pcapng');
    a.title = 'the packets of this capture\'s flows that match the query';
    cell.append(a);
    row.append(cell);
    body.append(row);
  }
  if (r.files.length === 0) {
    const empty = el('tr');
    const td = el('td', 'no capture indexed yet (metaroce index CAPTURE --index DIR)', 'empty');
    td.colSpan = 9;
    empty.append(td);
    body.append(empty);
  }
}

// ------------------------------------------------------------------ start

document.addEventListener('DOMContentLoaded', async () => {
  const by = $('by');
  by.append(el('option', 'default'));
  by.options[0].value = '';
  for (const c of COUNTERS) by.append(el('option', c));
  $('bar').addEventListener('submit', (e) => { e.preventDefault(); go({q: $('q').value, start: 0}); });
  by.addEventListener('change', () => go({by: by.value}));
  $('date').addEventListener('change', () => {
    if ($('date').value === 'custom') { state.date = 'custom'; $('custom').hidden = false; $('startTime').focus(); return; }
    go({date: $('date').value, startTime: '', stopTime: '', start: 0});
  });
  const times = () => go({date: 'custom', startTime: $('startTime').value.trim(), stopTime: $('stopTime').value.trim(), start: 0});
  $('apply').addEventListener('click', times);
  for (const id of ['startTime', 'stopTime']) $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') times(); });
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => go({tab: b.dataset.tab}));
  $('prev').addEventListener('click', () => go({start: Math.max(0, state.start - PAGE)}));
  $('next').addEventListener('click', () => go({start: state.start + PAGE}));
  $('limit').addEventListener('input', pcapLink);
  $('columnsButton').addEventListener('click', () => {
    const box = $('columnChooser');
    box.hidden = !box.hidden;
    $('columnsButton').setAttribute('aria-expanded', String(!box.hidden));
    if (!box.hidden) chooser();
  });
  for (const id of ['from', 'to']) $(id).addEventListener('change', () => go({[id]: $(id).value.trim()}));
  $('layout').addEventListener('change', () => go({layout: $('layout').value}));
  $('minConn').addEventListener('change', () => go({minconn: $('minConn').value}));
  $('nodeSize').addEventListener('change', () => go({size: $('nodeSize').value}));
  $('graphField').addEventListener('change', () => go({field: $('graphField').value}));
  $('graphN').addEventListener('change', () => go({n: $('graphN').value}));
  window.addEventListener('hashchange', () => { readHash(); render(); });
  readHash();
  try {
    const r = await api('/api/fields');
    FIELDS = new Map(r.fields.map((f) => [f.name, f]));
  } catch (e) {
    showError(e);
  }
  for (const f of FIELDS.values()) {
    if (f.type === 'keyword' || f.type === 'long' || f.type === 'ip') $('graphField').append(el('option', f.name));
  }
  render();
});
