// Kyobo's page: play shogi or Dobutsu shogi against the engine, watch it think,
// review records. It talks only to the server that sent it (see serve/mod.rs).
'use strict';

const $ = (id) => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';

const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const DOBUTSU_START = 'gle/1c1/1C1/ELG b - 1';
const KANJI = {
  K: '玉', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩',
  '+R': '龍', '+B': '馬', '+S': '全', '+N': '圭', '+L': '杏', '+P': 'と',
};
// Dobutsu pieces: Japanese name, English name, colour.
const ANIMALS = {
  L: ['ライオン', 'lion', '#f4b183'],
  G: ['キリン', 'giraffe', '#d6c4ef'],
  E: ['ゾウ', 'elephant', '#bcdcf2'],
  C: ['ヒヨコ', 'chick', '#fff1a6'],
  '+C': ['ニワトリ', 'hen', '#f6c7c7'],
};
// Where each animal may step, for the side moving up the board (dots on the piece).
const STEPS = {
  L: [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
  G: [[0, -1], [-1, 0], [1, 0], [0, 1]],
  E: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  C: [[0, -1]],
  '+C': [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [0, 1]],
};
const HAND_ORDER = { shogi: ['R', 'B', 'G', 'S', 'N', 'L', 'P'], dobutsu: ['G', 'E', 'C'] };
const RANK_KANJI = '一二三四五六七八九';

// ---- Drawing -----------------------------------------------------------------

function geometry(variant) {
  return variant === 'shogi'
    ? { files: 9, ranks: 9, S: 10, x0: 3, y0: 14, width: 100, height: 118, hand: 9 }
    : { files: 3, ranks: 4, S: 22, x0: 17, y0: 17, width: 100, height: 122, hand: 13 };
}

function squareName(variant, c, r) {
  return variant === 'shogi' ? `${9 - c}${'abcdefghi'[r]}` : `${'abc'[c]}${r + 1}`;
}

// An SFEN's board, side to move and hands.
function parseSfen(sfen) {
  const [board, side, hands] = sfen.trim().split(/\s+/);
  const rows = board.split('/');
  const cells = {};
  const variant = rows.length === 9 ? 'shogi' : 'dobutsu';
  rows.forEach((row, r) => {
    let c = 0;
    let promoted = false;
    for (const ch of row) {
      if (ch === '+') { promoted = true; continue; }
      if (/[0-9]/.test(ch)) { c += Number(ch); continue; }
      const up = ch.toUpperCase();
      cells[squareName(variant, c, r)] = { piece: (promoted ? '+' : '') + up, black: ch === up };
      promoted = false;
      c += 1;
    }
  });
  const hand = { black: {}, white: {} };
  if (hands && hands !== '-') {
    let count = '';
    for (const ch of hands) {
      if (/[0-9]/.test(ch)) { count += ch; continue; }
      const who = ch === ch.toUpperCase() ? 'black' : 'white';
      const k = ch.toUpperCase();
      hand[who][k] = (hand[who][k] || 0) + (count ? Number(count) : 1);
      count = '';
    }
  }
  return { cells, toMove: side === 'b' ? 'black' : 'white', hand };
}

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// One piece in the square at (x, y) of side S; `down`: it faces the viewer.
function drawPiece(parent, variant, piece, x, y, S, down) {
  const g = el('g', { 'pointer-events': 'none', class: 'piece' }, parent);
  if (down) g.setAttribute('transform', `rotate(180 ${x + S / 2} ${y + S / 2})`);
  if (variant === 'shogi') {
    const p = (fx, fy) => `${x + fx * S},${y + fy * S}`;
    el('polygon', {
      class: 'piece-body',
      points: [p(0.5, 0.06), p(0.82, 0.2), p(0.9, 0.95), p(0.1, 0.95), p(0.18, 0.2)].join(' '),
    }, g);
    el('text', {
      class: 'piece-text' + (piece.startsWith('+') ? ' promoted' : ''),
      x: x + S / 2, y: y + S * 0.58, 'font-size': S * 0.55,
    }, g, KANJI[piece] || piece);
  } else {
    const [name, english, colour] = ANIMALS[piece] || [piece, '', '#fff'];
    el('rect', {
      class: 'piece-body', x: x + S * 0.06, y: y + S * 0.06, width: S * 0.88, height: S * 0.88,
      rx: S * 0.1, fill: colour, style: `fill:${colour}`,
    }, g);
    el('text', { class: 'animal-text', x: x + S / 2, y: y + S * 0.5, 'font-size': S * 0.19 }, g, name);
    el('text', { class: 'animal-en', x: x + S / 2, y: y + S * 0.7, 'font-size': S * 0.13 }, g, english);
    for (const [dx, dy] of STEPS[piece] || []) {
      el('circle', { class: 'dot', cx: x + S / 2 + dx * S * 0.34, cy: y + S / 2 + dy * S * 0.34, r: S * 0.04 }, g);
    }
  }
}

// The board of `o.sfen` seen from `o.viewer`'s side, with the selection, the
// legal destinations and the last move marked.
function drawBoard(svg, o) {
  const g = geometry(o.variant);
  const S = g.S;
  svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
  svg.replaceChildren();
  const pos = parseSfen(o.sfen);
  const flip = o.viewer === 'white';
  const place = (c, r) => (flip ? [g.files - 1 - c, g.ranks - 1 - r] : [c, r]);
  const targets = o.targets || new Set();
  for (let r = 0; r < g.ranks; r++) {
    for (let c = 0; c < g.files; c++) {
      const name = squareName(o.variant, c, r);
      const [dc, dr] = place(c, r);
      const x = g.x0 + dc * S;
      const y = g.y0 + dr * S;
      let cls = 'sq';
      if (o.last && (o.last.from === name || o.last.to === name)) cls += ' last';
      if (o.selected && o.selected.from === name) cls += ' selected';
      el('rect', { class: cls, x, y, width: S, height: S, 'data-sq': name }, svg);
      const cell = pos.cells[name];
      if (cell) drawPiece(svg, o.variant, cell.piece, x, y, S, cell.black !== (o.viewer !== 'white'));
      if (targets.has(name)) el('circle', { class: 'target', cx: x + S / 2, cy: y + S / 2, r: S * 0.16 }, svg);
    }
  }
  // Coordinates: shogi's files 9-1 and ranks 一-九; Dobutsu's files a-c and
  // ranks 1-4, as its moves are written (Cb3xb2).
  const fileName = (c) => (o.variant === 'shogi' ? String(9 - c) : 'abc'[c]);
  const rankName = (r) => (o.variant === 'shogi' ? RANK_KANJI[r] : String(r + 1));
  const size = o.variant === 'shogi' ? 2.4 : 3.2;
  for (let c = 0; c < g.files; c++) {
    const dc = flip ? g.files - 1 - c : c;
    el('text', { class: 'coord', x: g.x0 + dc * S + S / 2, y: g.y0 - 1.6, 'font-size': size }, svg, fileName(c));
  }
  for (let r = 0; r < g.ranks; r++) {
    const dr = flip ? g.ranks - 1 - r : r;
    el('text', { class: 'coord', x: g.x0 + g.files * S + 1.8 + size / 2, y: g.y0 + dr * S + S / 2, 'font-size': size }, svg, rankName(r));
  }
  const bottom = o.viewer === 'white' ? 'white' : 'black';
  const top = bottom === 'black' ? 'white' : 'black';
  drawHand(svg, o, g, top, 1, pos.hand[top]);
  drawHand(svg, o, g, bottom, g.y0 + g.ranks * S + 2, pos.hand[bottom]);
}

function drawHand(svg, o, g, who, y, hand) {
  const H = g.hand;
  const mark = who === 'black' ? '☗' : '☖';
  el('text', { class: 'hand-label', x: 1, y: y + H / 2, 'font-size': H * 0.4 }, svg, mark);
  let x = 6;
  for (const k of HAND_ORDER[o.variant]) {
    const n = hand[k] || 0;
    if (!n) continue;
    const selected = o.handSelected && o.handSelected.who === who && o.handSelected.piece === k;
    const slot = el('g', {
      class: 'hand-slot clickable' + (selected ? ' selected' : ''), 'data-hand': `${who}:${k}`,
    }, svg);
    el('rect', { x, y, width: H, height: H, fill: 'transparent' }, slot);
    drawPiece(slot, o.variant, k, x, y, H, who !== (o.viewer === 'white' ? 'white' : 'black'));
    if (n > 1) el('text', { class: 'hand-count', x: x + H - 1, y: y + H - 0.5, 'font-size': H * 0.32 }, slot, String(n));
    x += H + 1.5;
  }
}

// ---- Talking to the server ----------------------------------------------------

async function api(path, body, raw) {
  const options = body === undefined ? {} : {
    method: 'POST',
    body: raw ? body : JSON.stringify(body),
    headers: { 'Content-Type': raw ? 'application/octet-stream' : 'application/json' },
  };
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function say(id, text, isError) {
  const p = $(id);
  p.textContent = text || '';
  p.classList.toggle('error', !!isError);
}

function moveSquares(usi) {
  if (!usi) return null;
  return usi[1] === '*' ? { to: usi.slice(2, 4) } : { from: usi.slice(0, 2), to: usi.slice(2, 4) };
}

// ---- Play ---------------------------------------------------------------------

let game = null;
let selection = null; // { from: '7g' } or { drop: 'P' }
let dragFrom = null;
let promotionChoice = null;

function acceptGame(g) {
  if (!g || !game || g.id > game.id || (g.id === game.id && g.turn >= game.turn)) {
    if (!game || !g || g.id !== game.id) resetThinking();
    game = g;
    selection = null;
    renderGame();
  }
}

function targetsOf(sel) {
  if (!sel || !game) return new Set();
  const t = new Set();
  for (const m of game.legal) {
    if (sel.drop && m.startsWith(sel.drop + '*')) t.add(m.slice(2, 4));
    if (sel.from && m[1] !== '*' && m.slice(0, 2) === sel.from) t.add(m.slice(2, 4));
  }
  return t;
}

function resultText(g) {
  const o = g.over;
  const head = { win: 'You win', loss: 'Kyobo wins', draw: 'A draw' }[o.result] || o.result;
  return `${head}: ${o.reason}.`;
}

function renderGame() {
  const g = game;
  const variant = g ? g.variant : $('variant').value;
  const viewer = g ? g.human : $('side').value;
  const sfen = g ? g.sfen : (variant === 'shogi' ? SHOGI_START : DOBUTSU_START);
  const lastMove = g && g.moves.length ? g.moves[g.moves.length - 1].usi : null;
  drawBoard($('board'), {
    variant, sfen, viewer,
    selected: selection && selection.from ? selection : null,
    handSelected: selection && selection.drop ? { who: viewer, piece: selection.drop } : null,
    targets: targetsOf(selection),
    last: moveSquares(lastMove),
  });
  let status = 'Choose a game and press New game.';
  if (g) {
    const mark = g.human === 'black' ? '☗' : '☖';
    if (g.over) status = resultText(g);
    else if (g.thinking) status = `${variant === 'dobutsu' ? 'The engine' : 'Kyobo'} is thinking…`;
    else if (g.to_move === g.human) status = `Your move (${mark} ${g.human === 'black' ? 'Black' : 'White'}).`;
    else status = 'Waiting for the engine.';
  }
  $('status').textContent = status;
  const shogi = variant === 'shogi';
  const playing = g && !g.over;
  $('undo').disabled = !g || g.moves.length === 0;
  $('resign').disabled = !playing;
  $('declare').disabled = !playing || !shogi;
  $('declare').hidden = !shogi;
  for (const [id, show] of [['download-kif', shogi], ['download-csa', shogi], ['download-txt', !shogi]]) {
    $(id).hidden = !show;
    $(id).classList.toggle('disabled', !g);
  }
  $('review-game').hidden = !shogi;
  $('review-game').disabled = !g || g.moves.length === 0;
  const list = $('moves');
  list.replaceChildren();
  if (g) {
    g.moves.forEach((m) => {
      const li = document.createElement('li');
      li.textContent = m.text;
      list.appendChild(li);
    });
    list.scrollTop = list.scrollHeight;
  }
  $('handicap-label').hidden = $('variant').value !== 'shogi';
  $('handicap-hint').hidden = $('variant').value !== 'shogi';
}

function resetThinking() {
  for (const id of ['think-score', 'think-depth', 'think-nodes']) $(id).textContent = '–';
  $('think-pv').textContent = '';
  setEvalBar(0.5);
}

function setEvalBar(blackChance) {
  const viewer = game ? game.human : 'black';
  const mine = viewer === 'black' ? blackChance : 1 - blackChance;
  // The fill is Black's share, from the bottom when the viewer plays Black.
  const blackShare = blackChance;
  const fill = $('evalfill');
  fill.style.height = `${Math.round(100 * blackShare)}%`;
  fill.style.top = viewer === 'white' ? '0' : '';
  fill.style.bottom = viewer === 'white' ? '' : '0';
  $('evaltext').textContent = `you ${Math.round(100 * mine)}%`;
}

function showThinking(info) {
  if (!game || info.game !== game.id) return;
  $('think-score').textContent = game.variant === 'shogi' ? `${info.score} for Black (☗)` : info.score;
  $('think-depth').textContent = info.depth === undefined ? '–' : `${info.depth}/${info.seldepth}`;
  $('think-nodes').textContent = info.nodes === undefined ? '–'
    : `${info.nodes.toLocaleString('en')} (${Math.round(info.nps / 1000).toLocaleString('en')} k/s)`;
  $('think-pv').textContent = info.pv;
  setEvalBar(info.black_chance);
}

async function sendMove(usi) {
  selection = null;
  try {
    const r = await api('/api/game/move', { move: usi });
    say('message', '');
    acceptGame(r.game);
  } catch (e) {
    say('message', e.message, true);
    renderGame();
  }
}

function askPromotion(base) {
  promotionChoice = base;
  $('promote').hidden = false;
}

function tryMove(to) {
  const sel = selection;
  if (sel.drop) return sendMove(`${sel.drop}*${to}`);
  const base = sel.from + to;
  const plain = game.legal.includes(base);
  const promoted = game.legal.includes(base + '+');
  if (plain && promoted) return askPromotion(base);
  // Not a legal move: the server says which rule it breaks.
  return sendMove(promoted ? base + '+' : base);
}

function ownPieceOn(sq) {
  const cell = parseSfen(game.sfen).cells[sq];
  return cell && (cell.black === (game.human === 'black'));
}

function boardTarget(event) {
  const hit = document.elementFromPoint(event.clientX, event.clientY);
  const node = hit && hit.closest ? hit.closest('[data-sq],[data-hand]') : null;
  return node && $('board').contains(node) ? node : null;
}

function onBoardDown(event) {
  const node = event.target.closest('[data-sq],[data-hand]') || boardTarget(event);
  if (!node || !game || game.over) return;
  event.preventDefault();
  const myTurn = !game.thinking && game.to_move === game.human;
  if (node.dataset.hand) {
    const [who, piece] = node.dataset.hand.split(':');
    if (who !== game.human) return;
    if (!myTurn) { say('message', 'Wait for your turn.', true); return; }
    selection = selection && selection.drop === piece ? null : { drop: piece };
    renderGame();
    return;
  }
  const sq = node.dataset.sq;
  if (!myTurn) {
    say('message', game.thinking ? 'Wait for the engine’s move.' : 'It is not your turn.', true);
    return;
  }
  if (ownPieceOn(sq) && !(selection && selection.from === sq)) {
    selection = { from: sq };
    dragFrom = sq;
    say('message', '');
    renderGame();
  } else if (selection && selection.from === sq) {
    selection = null;
    renderGame();
  } else if (selection) {
    tryMove(sq);
  } else {
    say('message', 'Choose one of your pieces first.', true);
  }
}

function onPointerUp(event) {
  const from = dragFrom;
  dragFrom = null;
  if (!from || !selection || selection.from !== from) return;
  const node = boardTarget(event);
  if (node && node.dataset.sq && node.dataset.sq !== from) tryMove(node.dataset.sq);
}

async function newGame() {
  say('message', '');
  try {
    const r = await api('/api/game/new', {
      variant: $('variant').value,
      side: $('side').value,
      movetime_ms: Number($('movetime').value),
      handicap: $('variant').value === 'shogi' ? $('handicap').value : null,
      sfen: $('sfen').value,
    });
    game = null;
    acceptGame(r.game);
  } catch (e) {
    say('message', e.message, true);
  }
}

async function post(path, onDone) {
  try {
    const r = await api(path, {});
    say('message', '');
    onDone(r);
  } catch (e) {
    say('message', e.message, true);
  }
}

// ---- Review -------------------------------------------------------------------

let review = null;
let reviewPly = 0;
const MARK_CLASS = { '?!': 'mark-dubious', '?': 'mark-mistake', '??': 'mark-blunder' };

function setReview(r) {
  review = r;
  reviewPly = 0;
  $('progress').hidden = true;
  $('progress-text').textContent = '';
  renderReview();
}

function renderReview() {
  const r = review;
  const n = r ? r.plies.length : 0;
  reviewPly = Math.max(0, Math.min(reviewPly, n));
  const sfen = !r ? SHOGI_START : reviewPly === 0 ? r.start : r.plies[reviewPly - 1].sfen;
  drawBoard($('review-board'), {
    variant: 'shogi', sfen, viewer: 'black',
    last: r && reviewPly > 0 ? moveSquares(r.plies[reviewPly - 1].usi) : null,
  });
  $('ply-label').textContent = `${reviewPly} / ${n}`;
  if (!r) {
    $('review-title').textContent = 'No record open.';
  } else {
    const names = Object.fromEntries(r.headers);
    const players = [names['先手'] || names['下手'], names['後手'] || names['上手']].filter(Boolean);
    $('review-title').textContent = `${r.name}${players.length ? ` — ☗${players[0] || '?'} ☖${players[1] || '?'}` : ''}`;
  }
  const analysis = r && r.analysis;
  const judged = analysis && reviewPly > 0 ? analysis.moves[reviewPly - 1] : null;
  $('review-comment').textContent = r && reviewPly > 0
    ? `${reviewPly}. ${r.plies[reviewPly - 1].text}${judged ? ` ${judged.mark || ''} — ${judged.text}` : ''}`
    : '';
  const list = $('review-moves');
  list.replaceChildren();
  if (r) {
    r.plies.forEach((p, i) => {
      const li = document.createElement('li');
      const j = analysis ? analysis.moves[i] : null;
      li.textContent = p.text + (j && j.mark ? ` ${j.mark}` : '');
      if (j && j.mark) li.className = MARK_CLASS[j.mark];
      if (i + 1 === reviewPly) li.classList.add('current');
      li.addEventListener('click', () => { reviewPly = i + 1; renderReview(); });
      list.appendChild(li);
    });
    const current = list.querySelector('.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
  }
  drawGraph();
}

const GRAPH = { left: 34, right: 8, top: 8, height: 140, width: 640 };

function graphX(i, n) {
  const w = GRAPH.width - GRAPH.left - GRAPH.right;
  return GRAPH.left + (n === 0 ? 0 : (w * i) / n);
}

function drawGraph() {
  const svg = $('graph');
  svg.replaceChildren();
  const G = GRAPH;
  const y = (v) => G.top + G.height * (1 - v);
  el('rect', { x: G.left, y: G.top, width: G.width - G.left - G.right, height: G.height, fill: '#fafafa', stroke: '#bbb' }, svg);
  for (const [v, label] of [[1, '100%'], [0.5, '50%'], [0, '0%']]) {
    el('line', { x1: G.left, x2: G.width - G.right, y1: y(v), y2: y(v), stroke: v === 0.5 ? '#888' : '#ddd', 'stroke-dasharray': v === 0.5 ? '3 3' : '' }, svg);
    el('text', { x: 2, y: y(v) + 3, 'font-size': 10 }, svg, label);
  }
  const r = review;
  if (!r || !r.analysis) {
    el('text', { x: G.left + 10, y: G.top + 24, 'font-size': 12, fill: '#777' }, svg,
      r ? 'Press Analyse to see the graph.' : 'Open a record.');
    return;
  }
  const moves = r.analysis.moves;
  const n = moves.length;
  const values = [0.5, ...moves.map((m) => m.black_chance)];
  const points = values.map((v, i) => `${graphX(i, n)},${y(v)}`).join(' ');
  el('polyline', { points, fill: 'none', stroke: '#2f6f4f', 'stroke-width': 1.6, id: 'graph-line' }, svg);
  moves.forEach((m, i) => {
    if (!m.mark) return;
    const colour = { '?!': '#d4a800', '?': '#e07000', '??': '#c0141b' }[m.mark];
    el('circle', { cx: graphX(i + 1, n), cy: y(m.black_chance), r: 3.2, fill: colour, class: 'graph-mark' }, svg)
      .appendChild(el('title', {}, null, `${i + 1}. ${r.plies[i].text} ${m.mark}`));
  });
  const cx = graphX(reviewPly, n);
  el('line', { x1: cx, x2: cx, y1: G.top, y2: G.top + G.height, stroke: '#c0141b', 'stroke-width': 1, id: 'graph-cursor' }, svg);
  el('text', { x: G.left, y: G.top + G.height + 16, 'font-size': 10 }, svg, `depth ${r.analysis.depth}, ${n} moves`);
}

function onGraphClick(event) {
  if (!review || !review.analysis) return;
  const box = $('graph').getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * GRAPH.width;
  const n = review.analysis.moves.length;
  const w = GRAPH.width - GRAPH.left - GRAPH.right;
  reviewPly = Math.round(((x - GRAPH.left) / w) * n);
  renderReview();
}

async function openRecord(file) {
  say('review-message', '');
  try {
    const bytes = await file.arrayBuffer();
    const r = await api(`/api/review/open?name=${encodeURIComponent(file.name)}`, bytes, true);
    setReview(r.review);
  } catch (e) {
    say('review-message', e.message, true);
  }
}

async function analyse() {
  say('review-message', '');
  try {
    const r = await api('/api/review/analyse', { depth: Number($('depth').value) });
    $('progress').hidden = false;
    $('progress').max = r.total;
    $('progress').value = 0;
    $('progress-text').textContent = `0 / ${r.total} moves`;
  } catch (e) {
    say('review-message', e.message, true);
  }
}

// ---- Events and wiring --------------------------------------------------------

function onEvent(event) {
  const ev = JSON.parse(event.data);
  if (ev.type === 'state') acceptGame(ev.state.game);
  else if (ev.type === 'info') showThinking(ev);
  else if (ev.type === 'analysis-progress' && review && ev.review === review.id) {
    $('progress').hidden = false;
    $('progress').max = ev.total;
    $('progress').value = ev.done;
    $('progress-text').textContent = `${ev.done} / ${ev.total} moves`;
  } else if (ev.type === 'analysis' && review && ev.review === review.id) {
    review.analysis = ev.analysis;
    $('progress-text').textContent = 'analysed';
    renderReview();
  }
}

function showTab(name) {
  for (const t of ['play', 'review']) {
    $(t).hidden = t !== name;
    $(`tab-${t}`).classList.toggle('active', t === name);
  }
}

function wire() {
  $('tab-play').addEventListener('click', () => showTab('play'));
  $('tab-review').addEventListener('click', () => showTab('review'));
  $('start').addEventListener('click', newGame);
  for (const id of ['variant', 'side', 'handicap']) $(id).addEventListener('change', () => { if (!game || game.over) renderGame(); });
  $('board').addEventListener('pointerdown', onBoardDown);
  window.addEventListener('pointerup', onPointerUp);
  $('promote-yes').addEventListener('click', () => { $('promote').hidden = true; sendMove(promotionChoice + '+'); });
  $('promote-no').addEventListener('click', () => { $('promote').hidden = true; sendMove(promotionChoice); });
  $('undo').addEventListener('click', () => post('/api/game/undo', (r) => acceptGame(r.game)));
  $('resign').addEventListener('click', () => post('/api/game/resign', (r) => acceptGame(r.game)));
  $('declare').addEventListener('click', () => post('/api/game/declare', (r) => acceptGame(r.game)));
  $('review-game').addEventListener('click', () => post('/api/review/game', (r) => { setReview(r.review); showTab('review'); }));
  $('record-file').addEventListener('change', (e) => { if (e.target.files[0]) openRecord(e.target.files[0]); });
  $('analyse').addEventListener('click', analyse);
  $('first').addEventListener('click', () => { reviewPly = 0; renderReview(); });
  $('prev').addEventListener('click', () => { reviewPly -= 1; renderReview(); });
  $('next').addEventListener('click', () => { reviewPly += 1; renderReview(); });
  $('last').addEventListener('click', () => { reviewPly = review ? review.plies.length : 0; renderReview(); });
  $('graph').addEventListener('click', onGraphClick);
  document.addEventListener('keydown', (e) => {
    if ($('review').hidden || e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (moves) reviewPly += moves;
    else if (e.key === 'Home') reviewPly = 0;
    else if (e.key === 'End') reviewPly = review ? review.plies.length : 0;
    else return;
    renderReview();
  });
  new EventSource('/api/events').onmessage = onEvent;
}

async function start() {
  wire();
  renderGame();
  renderReview();
  try {
    const s = await api('/api/state');
    if (s.play) acceptGame(s.play);
    if (s.review) setReview(s.review);
  } catch (e) {
    say('message', e.message, true);
  }
  document.body.dataset.ready = 'true';
}

start();
