// The live board page: draws the game with chessground and speaks the
// chessbot WebSocket protocol (JSON text frames, "v":1). No build step, no
// globals, no inline script or markup from strings: every text from the server
// goes in with textContent.
//
// SPDX-License-Identifier: GPL-3.0-or-later

import { Chessground } from './chessground.min.js';

const body = document.body;
const $ = id => document.getElementById(id);

const words = (() => {
  try {
    return JSON.parse($('chessbot-words').textContent) || {};
  } catch {
    return {};
  }
})();
const word = id => (typeof words[id] === 'string' ? words[id] : id);
// web-deadline carries { $left }; the server may send it unfilled as "{$left}".
const fill = (text, value) => {
  const out = text.replace(/\{\s*\$?left\s*\}/, () => value);
  return out === text ? `${text} ${value}` : out;
};

const lang = document.documentElement.lang || 'en';
const COLORS = ['white', 'black'];
const other = c => (c === 'white' ? 'black' : 'white');

// ---------------------------------------------------------------- elements

const el = (tag, props, ...kids) => {
  const e = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'on') for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
      else if (k === 'data') for (const [dk, dv] of Object.entries(v)) e.dataset[dk] = dv;
      else e.setAttribute(k, v === true ? '' : v);
    }
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
};

const boardEl = $('board');
const wrapEl = $('board-wrap');
const statusEl = $('status');
const movesEl = $('moves');
const actionsEl = $('actions');
const promptEl = $('prompt');
const noticeEl = $('notice');
const strips = { top: $('player-top'), bottom: $('player-bottom') };

const spectator = body.dataset.role !== 'player';

movesEl.setAttribute('aria-label', word('web-moves'));
const connEl = el('div', { class: 'conn', role: 'status' });
wrapEl.append(connEl);

// ---------------------------------------------------------------- state

let state = null; // the last state frame
let receivedAt = 0; // performance.now() when it arrived
let ws = null;
let everOpen = false;
let backoff = 500;
let retryTimer = 0;
let sentPly = null; // ply a move was sent on, until the next state or a refusal
let actPending = false; // an action was sent, until the next state or a refusal
let promo = null; // the open promotion chooser: { orig, dest, box }
let premove = null; // [orig, dest] while chessground holds a premove
let noticeTimer = 0;
let tickTimer = 0;

body.dataset.connected = '0';

// ---------------------------------------------------------------- board

const ground = Chessground(boardEl, {
  viewOnly: spectator,
  coordinates: true,
  animation: { enabled: true, duration: 200 },
  highlight: { lastMove: true, check: true },
  movable: {
    free: false,
    color: undefined,
    dests: new Map(),
    showDests: true,
    events: { after: onUserMove, afterNewPiece: onUserDrop },
  },
  premovable: {
    enabled: true,
    showDests: true,
    events: {
      set: (orig, dest) => {
        premove = [orig, dest];
        renderStatus();
      },
      unset: () => {
        premove = null;
        renderStatus();
      },
    },
  },
  draggable: { enabled: true, showGhost: true },
  drawable: { enabled: true },
});

const toDests = obj => {
  const m = new Map();
  if (obj) for (const [from, tos] of Object.entries(obj)) if (Array.isArray(tos) && tos.length) m.set(from, tos);
  return m;
};

const gameOn = s => !!s && !s.end && !!s.you && !spectator;
const myTurn = s => gameOn(s) && s.turn === s.you;

// Whether the board has shown a state yet. The first one is put without
// animation: chessground starts from the initial position, and animating
// from there would fly every piece of a game in progress across the board.
let boardShown = false;

// Puts the board exactly as the state says (also used to undo a local move).
function setBoard(s, withDests = true) {
  const first = !boardShown;
  boardShown = true;
  if (first) ground.set({ animation: { enabled: false } });
  const on = gameOn(s);
  const wantViewOnly = spectator || !on;
  if (ground.state.viewOnly !== wantViewOnly) {
    if (wantViewOnly) ground.cancelPremove();
    ground.state.viewOnly = wantViewOnly;
    ground.redrawAll();
  }
  ground.set({
    fen: s.fen,
    orientation: s.orientation === 'black' ? 'black' : 'white',
    turnColor: s.turn,
    lastMove: Array.isArray(s.last) && s.last.length === 2 ? s.last : undefined,
    check: !!s.check,
    movable: {
      color: on ? s.you : undefined,
      dests: on && withDests && s.turn === s.you ? toDests(s.dests) : new Map(),
    },
    premovable: { enabled: on },
  });
  if (first) ground.set({ animation: { enabled: true } });
  if (ground.state.dropmode.active && !(on && s.turn === s.you)) endDropMode();
}

function onUserMove(orig, dest, meta) {
  const s = state;
  if (!myTurn(s) || sentPly !== null) {
    if (s) setBoard(s);
    return;
  }
  const piece = ground.state.pieces.get(dest);
  const lastRank = dest[1] === '8' || dest[1] === '1';
  if (piece && piece.role === 'pawn' && lastRank) {
    if (meta && meta.premove) sendMove(orig + dest + 'q');
    else openPromotion(orig, dest, piece.color);
    return;
  }
  sendMove(orig + dest);
}

function sendMove(uci) {
  const s = state;
  if (!send({ v: 1, t: 'move', uci, ply: s.ply })) {
    setBoard(s);
    return;
  }
  sentPly = s.ply;
  // No more moves until the server answers; premoves stay possible.
  ground.set({ movable: { dests: new Map() } });
  renderPockets();
}

// ---------------------------------------------------------------- drops (Crazyhouse)

// The pieces a pocket holds, in the order the server counts them: the letter
// a drop is written with (N of N@f3), chessground's role, the word for it.
const POCKET = [
  ['P', 'pawn', 'web-pawn'],
  ['N', 'knight', 'web-knight'],
  ['B', 'bishop', 'web-bishop'],
  ['R', 'rook', 'web-rook'],
  ['Q', 'queen', 'web-queen'],
];
const letterOf = role => (POCKET.find(([, r]) => r === role) || [])[0];
const variantOf = s => (s && s.variant) || {};

// A piece dragged from a pocket, or put with a click on a square after one on
// the pocket (chessground's drop mode): the server's drops say where it may go.
function onUserDrop(role, key) {
  const s = state;
  const letter = letterOf(role);
  const squares = letter && variantOf(s).drops && variantOf(s).drops[letter];
  endDropMode();
  if (!myTurn(s) || sentPly !== null || !Array.isArray(squares) || !squares.includes(key)) {
    if (s) setBoard(s);
    return;
  }
  sendMove(`${letter}@${key}`);
}

function startDrop(role, e) {
  const s = state;
  if (!myTurn(s) || sentPly !== null) return;
  const piece = { role, color: s.you };
  const same = ground.state.dropmode.active && ground.state.dropmode.piece && ground.state.dropmode.piece.role === role;
  if (same) {
    endDropMode();
    return;
  }
  ground.set({ dropmode: { active: true, piece } });
  renderPockets();
  // Dragged onto the board, the piece drops at once; let go where it was
  // picked, it waits for a click on a square.
  if (e.type === 'mousedown' || e.type === 'touchstart') {
    e.preventDefault();
    ground.dragNewPiece(piece, e);
  }
}

function endDropMode() {
  if (!ground.state.dropmode.active) return;
  ground.set({ dropmode: { active: false } });
  renderPockets();
}

function renderPockets() {
  const s = state;
  if (!s) return;
  const pockets = variantOf(s).pockets;
  const chosen = ground.state.dropmode.active && ground.state.dropmode.piece && ground.state.dropmode.piece.role;
  for (const strip of Object.values(strips)) {
    const color = strip.dataset.color;
    let box = strip.querySelector('.pocket');
    if (!pockets || !pockets[color]) {
      if (box) box.remove();
      continue;
    }
    if (!box) {
      // cg-wrap: chessground's piece set draws the pieces in it.
      box = el('div', { class: 'pocket cg-wrap', role: 'group', 'aria-label': word('web-pocket') });
      strip.querySelector('.points').after(box);
    }
    const mine = myTurn(s) && s.you === color && sentPly === null;
    box.replaceChildren(
      ...POCKET.map(([letter, role, id]) => {
        const count = Number(pockets[color][letter.toLowerCase()]) || 0;
        const usable = mine && count > 0;
        return el(
          'button',
          {
            type: 'button',
            class: `pocket-piece${count ? '' : ' empty'}${usable && chosen === role ? ' chosen' : ''}`,
            data: { role, count: String(count) },
            title: word(id),
            'aria-label': `${word(id)} ×${count}`,
            disabled: !usable,
            on: usable ? { mousedown: e => startDrop(role, e), touchstart: e => startDrop(role, e), keydown: e => (e.key === 'Enter' || e.key === ' ') && startDrop(role, e) } : undefined,
          },
          el('piece', { class: `${role} ${color}` }),
          count > 1 ? el('span', { class: 'count', text: String(count) }) : null,
        );
      }),
    );
  }
}

// ---------------------------------------------------------------- promotion

const PROMOTIONS = [
  ['q', 'queen', 'web-queen'],
  ['r', 'rook', 'web-rook'],
  ['b', 'bishop', 'web-bishop'],
  ['n', 'knight', 'web-knight'],
];
// Antichess: a pawn may also become a king.
const promotionsOf = s => (variantOf(s).key === 'antichess' ? [...PROMOTIONS, ['k', 'king', 'web-king']] : PROMOTIONS);

function openPromotion(orig, dest, color) {
  closePromotion(false);
  const choices = promotionsOf(state).map(([letter, role, id]) =>
    el(
      'button',
      {
        type: 'button',
        data: { promote: letter },
        title: word(id),
        'aria-label': word(id),
        on: { click: () => choose(letter) },
      },
      el('piece', { class: `${role} ${color}` }),
    ),
  );
  const cancel = el('button', {
    type: 'button',
    class: 'cancel',
    'aria-label': '×',
    text: '×',
    on: { click: () => closePromotion(true) },
  });
  const box = el(
    'div',
    {
      class: 'promo',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-label': word('web-promote-to'),
      on: {
        click: e => {
          if (e.target === box) closePromotion(true);
        },
      },
    },
    el(
      'div',
      { class: 'promo-box cg-wrap' },
      el('div', { class: 'promo-title', text: word('web-promote-to') }),
      el('div', { class: 'promo-choices' }, ...choices),
      cancel,
    ),
  );
  wrapEl.append(box);
  promo = { orig, dest, box, ply: state.ply };
  choices[0].focus({ preventScroll: true });

  function choose(letter) {
    const p = promo;
    closePromotion(false);
    if (p && state && state.ply === p.ply && myTurn(state) && sentPly === null) sendMove(p.orig + p.dest + letter);
    else if (state) setBoard(state);
  }
}

function closePromotion(restore) {
  if (!promo) return;
  promo.box.remove();
  promo = null;
  if (restore && state) setBoard(state);
}

// ---------------------------------------------------------------- socket

function send(frame) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(frame));
  return true;
}

function connect() {
  clearTimeout(retryTimer);
  showConn();
  let sock;
  try {
    sock = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + body.dataset.ws);
  } catch {
    retry();
    return;
  }
  ws = sock;
  sock.addEventListener('open', () => {
    if (ws !== sock) return;
    everOpen = true;
    body.dataset.connected = '1';
    showConn();
  });
  sock.addEventListener('message', e => {
    if (ws !== sock || typeof e.data !== 'string') return;
    let f;
    try {
      f = JSON.parse(e.data);
    } catch {
      return;
    }
    if (!f || f.v !== 1) return;
    if (f.t === 'state') {
      backoff = 500;
      onState(f);
    } else if (f.t === 'refused') onRefused(f);
    else if (f.t === 'said') notice(f.text, 'said', 5000);
  });
  sock.addEventListener('close', () => {
    if (ws !== sock) return;
    ws = null;
    body.dataset.connected = '0';
    // Anything in flight is the server's to settle; its next state says how.
    sentPly = null;
    actPending = false;
    closePromotion(false);
    showConn();
    retry();
  });
  sock.addEventListener('error', () => {
    /* a close follows */
  });
}

function retry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, 5000);
}

function showConn() {
  const open = ws && ws.readyState === WebSocket.OPEN;
  connEl.textContent = open ? '' : word(everOpen ? 'web-reconnecting' : 'web-connecting');
  connEl.hidden = !!open;
}

// ---------------------------------------------------------------- frames

function onState(s) {
  const prev = state;
  if (prev && prev.game !== s.game) ground.cancelPremove();
  // A state with the same ply while our move is in flight: the move is still
  // to be answered, so keep the board as the player left it.
  const keepBoard = sentPly !== null && s.ply === sentPly && s.fen === (prev && prev.fen) && gameOn(s);
  state = s;
  receivedAt = performance.now();
  if (!keepBoard) sentPly = null;
  actPending = false;
  body.dataset.ply = String(s.ply);
  body.dataset.variant = variantOf(s).key || 'standard';
  if (promo && (promo.ply !== s.ply || !myTurn(s))) closePromotion(false);

  if (!keepBoard && !promo) setBoard(s);
  const becameMyTurn = myTurn(s) && !(prev && myTurn(prev) && prev.ply === s.ply);
  if (!keepBoard && becameMyTurn && ground.state.premovable.current) ground.playPremove();

  renderPlayers();
  renderMoves();
  renderStatus();
  renderActions();
  tick();
}

function onRefused(f) {
  notice(f.text, 'refused', 8000);
  actPending = false;
  if (sentPly !== null) {
    sentPly = null;
    if (state) setBoard(state);
  }
  renderPockets();
  renderActions();
}

function notice(text, kind, ms) {
  clearTimeout(noticeTimer);
  noticeEl.textContent = typeof text === 'string' ? text : '';
  noticeEl.className = kind;
  noticeEl.hidden = !noticeEl.textContent;
  noticeTimer = setTimeout(() => {
    noticeEl.textContent = '';
    noticeEl.hidden = true;
  }, ms);
}
noticeEl.hidden = true;

// ---------------------------------------------------------------- players, clocks

function renderPlayers() {
  const s = state;
  const bottom = s.orientation === 'black' ? 'black' : 'white';
  for (const [pos, color] of [
    ['bottom', bottom],
    ['top', other(bottom)],
  ]) {
    const strip = strips[pos];
    const p = (s.players && s.players[color]) || {};
    strip.dataset.color = color;
    strip.classList.toggle('white', color === 'white');
    strip.classList.toggle('black', color === 'black');
    strip.classList.toggle('turn', !s.end && s.turn === color);
    strip.classList.toggle('you', s.you === color);
    const name = strip.querySelector('.name');
    name.textContent = typeof p.name === 'string' ? p.name : '';
    name.title = word(color === 'white' ? 'web-white' : 'web-black');
    strip.querySelector('.points').textContent = typeof p.points === 'string' ? p.points : '';
    renderChecks(strip, color);
  }
  renderPockets();
}

// Three-check: a "+" for each check the player has given.
function renderChecks(strip, color) {
  const checks = variantOf(state).checks;
  let span = strip.querySelector('.checks');
  if (!checks || typeof checks[color] !== 'number') {
    if (span) span.remove();
    return;
  }
  if (!span) {
    span = el('span', { class: 'checks' });
    strip.querySelector('.points').after(span);
  }
  const given = Math.max(0, Math.min(3, checks[color]));
  span.textContent = given ? '+'.repeat(given) : '·';
  span.title = `${word('web-checks-given')}: ${given}/3`;
  span.setAttribute('aria-label', span.title);
}

const pad = n => String(n).padStart(2, '0');

function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const secs = Math.floor(ms / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const sec = secs % 60;
  return h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

const unitFormat = unit => {
  try {
    return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'narrow' });
  } catch {
    return { format: n => `${n}${unit[0]}` };
  }
};
const dayFmt = unitFormat('day');
const hourFmt = unitFormat('hour');

function formatDeadline(ms) {
  ms = Math.max(0, ms);
  const hours = Math.floor(ms / 3600000);
  if (hours >= 24) {
    const d = Math.floor(hours / 24);
    const h = hours % 24;
    return h ? `${dayFmt.format(d)} ${hourFmt.format(h)}` : dayFmt.format(d);
  }
  const secs = Math.floor(ms / 1000);
  return `${Math.floor(secs / 3600)}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
}

function tick() {
  clearTimeout(tickTimer);
  const s = state;
  if (!s) return;
  const elapsed = performance.now() - receivedAt;
  let again = 0;
  for (const pos of ['top', 'bottom']) {
    const strip = strips[pos];
    const color = strip.dataset.color;
    const span = strip.querySelector('.clock');
    let text = '';
    let running = false;
    let low = false;
    let deadline = false;
    if (s.clock && typeof s.clock[`${color}_ms`] === 'number') {
      running = !s.end && s.clock.running === color;
      const ms = s.clock[`${color}_ms`] - (running ? elapsed : 0);
      text = formatClock(ms);
      low = ms < 10000;
      if (running && ms > 0) again = ms < 10000 ? 100 : 250;
    } else if (typeof s.deadline_ms === 'number' && !s.end && s.turn === color) {
      const left = s.deadline_ms - Date.now();
      text = fill(word('web-deadline'), formatDeadline(left));
      deadline = true;
      running = true;
      low = left < 3600000;
      if (left > 0) again = 1000;
    }
    span.textContent = text;
    span.hidden = !text;
    span.classList.toggle('running', running);
    span.classList.toggle('low', low);
    span.classList.toggle('deadline', deadline);
  }
  if (again) tickTimer = setTimeout(tick, again);
}

// ---------------------------------------------------------------- moves

function renderMoves() {
  const s = state;
  const moves = Array.isArray(s.moves) ? s.moves : [];
  // Where the list starts: from the FEN's move number and side to move.
  // The move number is the FEN's last field (Three-check puts its checks
  // before the two counters).
  const parts = String(s.fen).split(' ');
  const full = parseInt(parts[parts.length - 1], 10) || 1;
  const nowPly = (full - 1) * 2 + (parts[1] === 'b' ? 1 : 0);
  const start = Math.max(0, nowPly - moves.length);
  movesEl.replaceChildren();
  movesEl.start = Math.floor(start / 2) + 1;
  let li = null;
  moves.forEach((san, i) => {
    const abs = start + i;
    if (!li || abs % 2 === 0) {
      li = el('li', { data: { n: String(Math.floor(abs / 2) + 1) } });
      movesEl.append(li);
      if (abs % 2 === 1) li.append(el('span', { class: 'san empty', text: '…' }));
    }
    li.append(el('span', { class: i === moves.length - 1 ? 'san last' : 'san', text: String(san) }));
  });
  movesEl.hidden = moves.length === 0;
  movesEl.scrollTop = movesEl.scrollHeight;
}

// ---------------------------------------------------------------- status

function renderStatus() {
  const s = state;
  if (!s) return;
  const kids = [];
  // The opening so far, as lichess names it (none before the book knows one).
  const opening = () => {
    if (typeof s.opening === 'string') kids.push(el('div', { class: 'opening', text: s.opening }));
  };
  if (s.end) {
    kids.push(el('div', { class: 'over', text: word('web-game-over') }));
    if (typeof s.end.result === 'string') kids.push(el('div', { class: 'result', text: s.end.result }));
    if (typeof s.end.text === 'string') kids.push(el('div', { class: 'end-text', text: s.end.text }));
    if (Array.isArray(s.end.points) && s.end.points.length)
      kids.push(el('ul', { class: 'points-lines' }, ...s.end.points.map(p => el('li', { text: String(p) }))));
    opening();
  } else {
    const variant = variantOf(s);
    if (variant.key && variant.key !== 'standard' && typeof variant.name === 'string')
      kids.push(el('div', { class: 'tag variant', text: variant.name }));
    if (spectator) kids.push(el('div', { class: 'tag watching', text: word('web-watching') }));
    else if (myTurn(s)) kids.push(el('div', { class: 'tag your-turn', text: word('web-your-turn') }));
    if (typeof s.status === 'string') kids.push(el('div', { class: 'line', text: s.status }));
    opening();
    if (premove && gameOn(s))
      kids.push(
        el(
          'div',
          { class: 'premove' },
          el('div', { text: word('web-premove-set') }),
          el('div', { class: 'hint', text: word('web-premove-cancel-hint') }),
        ),
      );
  }
  statusEl.replaceChildren(...kids);
  statusEl.classList.toggle('ended', !!s.end);
}

// ---------------------------------------------------------------- actions

function act(name) {
  if (actPending || !state) return;
  if (send({ v: 1, t: 'act', act: name, ply: state.ply })) {
    actPending = true;
    renderActions();
  }
}

function button(name, id, cls) {
  return el('button', {
    type: 'button',
    class: cls,
    data: { act: name },
    disabled: actPending,
    text: word(id),
    on: { click: () => (name === 'resign' ? askResign() : act(name)) },
  });
}

function askResign() {
  const yes = el('button', {
    type: 'button',
    class: 'danger',
    data: { act: 'resign-confirm' },
    text: word('web-yes'),
    on: {
      click: () => {
        closePrompt();
        act('resign-confirm');
      },
    },
  });
  const no = el('button', { type: 'button', class: 'cancel', text: word('web-no'), on: { click: closePrompt } });
  promptEl.replaceChildren(
    el('div', { class: 'question', text: word('web-resign-confirm') }),
    el('div', { class: 'row' }, yes, no),
  );
  promptEl.hidden = false;
  no.focus({ preventScroll: true });
}

function closePrompt() {
  promptEl.replaceChildren();
  promptEl.hidden = true;
}
promptEl.hidden = true;

function renderActions() {
  const s = state;
  if (!s) return;
  const can = s.can || {};
  const offers = s.offers || {};
  const you = spectator ? null : s.you;
  const them = you && other(you);
  const groups = [];
  const group = (note, ...btns) => {
    const b = btns.filter(Boolean);
    if (note || b.length)
      groups.push(el('div', { class: 'group' }, note && el('p', { class: 'note', text: word(note) }), ...b));
  };

  if (you && !s.end) {
    if (offers.draw === them) group('web-draw-offered-to-you', button('draw-accept', 'web-draw-accept', 'primary'), button('draw-decline', 'web-draw-decline'));
    else if (offers.draw === you) group('web-draw-offered-by-you');
    if (offers.takeback === them)
      group('web-takeback-asked-to-you', button('takeback-accept', 'web-takeback-accept', 'primary'), button('takeback-decline', 'web-takeback-decline'));
    else if (offers.takeback === you) group('web-takeback-asked-by-you');
    group(
      null,
      can.draw_claim && button('draw-claim', 'web-draw-claim'),
      can.draw_offer && offers.draw !== you && offers.draw !== them && button('draw-offer', 'web-draw-offer'),
      can.takeback && offers.takeback !== you && offers.takeback !== them && button('takeback', 'web-takeback'),
      can.give_time && button('give-time', 'web-give-time'),
      can.abort && button('abort', 'web-abort'),
      can.resign && button('resign', 'web-resign', 'danger'),
    );
  }
  if (you && s.end && can.rematch)
    group(offers.rematch === them ? 'web-rematch-offered-to-you' : null, button('rematch', 'web-rematch', 'primary'));

  actionsEl.replaceChildren(...groups);
  actionsEl.hidden = groups.length === 0;
  if (!can.resign || s.end || spectator) closePrompt();
}

// ---------------------------------------------------------------- start

document.addEventListener('keydown', e => {
  if (e.key !== 'Escape') return;
  if (promo) closePromotion(true);
  else if (ground.state.dropmode.active) endDropMode();
  else if (!promptEl.hidden) closePrompt();
});
if (body.dataset.ws) connect();
else showConn();
