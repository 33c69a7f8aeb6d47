// MetaRoCE viewer: the page over the JSON API (FlowViewer, ViewerApi). Plain JS, nothing fetched from elsewhere.
// Every value from the index (a capture path, a rule text, a flow id) is data a shared index's writer chose: the DOM
// is built with createElement and textContent only, never from HTML text.
'use strict';

const COLUMNS = [
  {key: 'flow', label: 'flow'},
  {key: 'capture_path', label: 'capture', show: basename},
  {key: 'first_ns', label: 'first', sort: 'first_ns', show: time},
  {key: 'packets', label: 'packets', sort: 'packets', num: true},
  {key: 'retransmitted_packets', label: 'retransmitted_packets', sort: 'retransmitted_packets', num: true},
  {key: 'naks', label: 'naks', sort: 'naks', num: true},
  {key: 'cnps', label: 'cnps', sort: 'cnps', num: true},
  {key: 'ce_marks', label: 'ce_marks', sort: 'ce_marks', num: true},
];
const COUNTERS = ['packets', 'bytes', 'payload_bytes', 'data_packets', 'retransmitted_packets', 'naks', 'cnps',
  'ce_marks', 'timeouts', 'out_of_order', 'duplicates', 'psn_gaps', 'network_losses', 'capture_gaps'];
const PAGE = 50;
const QP_FIELDS = new Set(['dest_qp', 'src_qps']);

// open: the root id of the flow whose document is shown (in the URL too, so a shared link shows that flow).
const state = {tab: 'sessions', q: '', sort: '', start: 0, by: '', from: 'src', to: 'dst', open: ''};
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
  state.tab = ['sessions', 'spiview', 'connections', 'files'].includes(p.get('tab')) ? p.get('tab') : 'sessions';
  state.q = p.get('q') || '';
  state.sort = p.get('sort') || '';
  state.start = Math.max(0, parseInt(p.get('start') || '0', 10) || 0);
  state.by = p.get('by') || '';
  state.from = p.get('from') || 'src';
  state.to = p.get('to') || 'dst';
  state.open = p.get('open') || '';
}

function writeHash() {
  const p = new URLSearchParams();
  for (const k of ['tab', 'q', 'sort', 'start', 'by', 'from', 'to', 'open']) if (state[k] !== '' && state[k] !== 0) p.set(k, state[k]);
  history.replaceState(null, '', '#' + p.toString());
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
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === state.tab);
  for (const s of document.querySelectorAll('section.tab')) s.hidden = s.id !== state.tab;
  try {
    if (state.tab === 'sessions') await sessions();
    else if (state.tab === 'spiview') await spiview();
    else if (state.tab === 'connections') await connections();
    else await files();
    showError(null);
  } catch (e) {
    showError(e);
  }
}

// ------------------------------------------------------------------ Sessions

async function sessions() {
  const r = await api('/api/sessions', {q: state.q, sort: state.sort, start: state.start, length: PAGE});
  const head = $('flows').tHead, body = $('flows').tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  const tr = el('tr');
  const [sortField, sortDir] = r.sort.split(':');
  for (const c of COLUMNS) {
    const th = el('th', c.label, (c.num ? 'num ' : '') + (c.sort ? 'sortable' : ''));
    if (c.sort && c.sort === sortField && (state.sort !== '' || c.sort === 'first_ns')) {
      th.classList.add('sorted');
      if (sortDir === 'asc') th.classList.add('asc');
    }
    if (c.sort) th.addEventListener('click', () => {
      const desc = c.sort !== 'first_ns';
      const next = c.sort === sortField ? (sortDir === 'desc' ? 'asc' : 'desc') : (desc ? 'desc' : 'asc');
      go({sort: c.sort + ':' + next, start: 0});
    });
    tr.append(th);
  }
  head.append(tr);
  for (const f of r.flows) {
    const row = el('tr', null, 'flow');
    for (const c of COLUMNS) row.append(el('td', c.show ? c.show(f[c.key]) : shown(c.key, f[c.key]), c.num ? 'num' : ''));
    row.addEventListener('click', () => toggleDetail(row, f));
    body.append(row);
    if (f.root_id === state.open) toggleDetail(row, f);
  }
  const last = r.start + r.flows.length;
  $('count').textContent = r.total === 0 ? 'no flow matches'
    : (r.start + 1) + '-' + last + ' of ' + r.total + ' flow' + (r.total === 1 ? '' : 's');
  $('prev').disabled = r.start === 0;
  $('next').disabled = last >= r.total;
  pcapLink();
}

function pcapLink() {
  const u = new URLSearchParams({q: state.q.trim() || '*:*'});
  if ($('limit').value) u.set('n', $('limit').value);
  $('pcapAll').href = '/api/sessions.pcap?' + u;
  $('pcapAll').setAttribute('download', 'metaroce-flows.pcapng');
}

async function toggleDetail(row, f) {
  const open = row.nextSibling;
  if (open && open.classList && open.classList.contains('detail')) {
    open.remove();
    if (state.open === f.root_id) { state.open = ''; writeHash(); }
    return;
  }
  state.open = f.root_id;
  writeHash();
  const tr = el('tr', null, 'detail'), td = el('td');
  td.colSpan = COLUMNS.length;
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

// ------------------------------------------------------------------ SPI View

async function spiview() {
  const r = await api('/api/spiview', {q: state.q, by: state.by});
  const box = $('facets');
  box.replaceChildren();
  for (const f of r.facets) {
    const card = el('div', null, 'facet');
    card.append(el('h3', f.top + '  (by ' + f.by + ')'));
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
  const r = await api('/api/connections', {q: state.q, by: state.by, from: state.from, to: state.to, n: 60});
  $('from').value = state.from;
  $('to').value = state.to;
  const [from, to] = r.connections, by = r.by;
  const nodes = new Map();
  const node = (value, field, term, p) => {
    const key = String(value);
    let n = nodes.get(key);
    if (!n) { n = {key, label: shown(field, value), terms: new Set(), flows: 0, sum: 0}; nodes.set(key, n); }
    n.terms.add(term);
    n.flows += p.flows;
    n.sum += p[by];
    return n;
  };
  const edges = r.pairs.map((p) => ({a: node(p[from], from, p.from_term, p), b: node(p[to], to, p.to_term, p), p}));
  const box = $('graph');
  box.replaceChildren();
  if (edges.length === 0) { box.append(el('div', 'no pairs match', 'empty')); return; }
  // A circle layout: every node on one ring, in the order the heaviest pairs name them (deterministic, no overlap).
  const list = [...nodes.values()];
  const W = 960, H = 620, cx = W / 2, cy = H / 2, R = Math.min(W, H) / 2 - 90;
  list.forEach((n, i) => {
    const a = 2 * Math.PI * i / list.length - Math.PI / 2;
    n.x = cx + R * Math.cos(a);
    n.y = cy + R * Math.sin(a);
  });
  const root = svg('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img'});
  const maxEdge = Math.max(1, ...edges.map((e) => e.p[by])), maxNode = Math.max(1, ...list.map((n) => n.sum));
  for (const e of edges) {
    const line = svg('line', {x1: e.a.x, y1: e.a.y, x2: e.b.x, y2: e.b.y, 'stroke-width': (1 + 11 * e.p[by] / maxEdge).toFixed(1)});
    const t = svg('title');
    t.textContent = e.a.label + ' \u2192 ' + e.b.label + '\nflows: ' + e.p.flows + '\n' + by + ': ' + e.p[by];
    line.append(t);
    root.append(line);
  }
  for (const n of list) {
    const c = svg('circle', {cx: n.x, cy: n.y, r: (4 + 10 * Math.sqrt(n.sum / maxNode)).toFixed(1)});
    const t = svg('title');
    t.textContent = n.label + '\nflows: ' + n.flows + '\n' + by + ': ' + n.sum + '\nclick: filter on it';
    c.append(t);
    const terms = [...n.terms];
    c.addEventListener('click', () => addTerm(terms.length === 1 ? terms[0] : '(' + terms.join(' OR ') + ')'));
    root.append(c);
    const right = n.x >= cx;
    const label = svg('text', {x: n.x + (right ? 16 : -16), y: n.y + 4, 'text-anchor': right ? 'start' : 'end'});
    label.textContent = n.label;
    root.append(label);
  }
  box.append(root);
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
    a.href = '/api/sessions.pcap?' + new URLSearchParams({q: q === '' || q === '*:*' ? f.term : '(' + q + ') AND ' + f.term});
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

document.addEventListener('DOMContentLoaded', () => {
  const by = $('by');
  by.append(el('option', 'default'));
  by.options[0].value = '';
  for (const c of COUNTERS) by.append(el('option', c));
  $('bar').addEventListener('submit', (e) => { e.preventDefault(); go({q: $('q').value, start: 0}); });
  by.addEventListener('change', () => go({by: by.value}));
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => go({tab: b.dataset.tab}));
  $('prev').addEventListener('click', () => go({start: Math.max(0, state.start - PAGE)}));
  $('next').addEventListener('click', () => go({start: state.start + PAGE}));
  $('limit').addEventListener('input', pcapLink);
  for (const id of ['from', 'to']) $(id).addEventListener('change', () => go({[id]: $(id).value.trim()}));
  window.addEventListener('hashchange', () => { readHash(); render(); });
  readHash();
  render();
});
